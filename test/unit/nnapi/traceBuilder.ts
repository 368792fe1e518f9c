/**
 * Writes systrace rows for tests: `T` gives each mark a thread, process and time (in ms, printed
 * as seconds with 6 decimals like ftrace).
 */
export interface Mark {
  /** ms since 100 s */
  t: number;
  pid: number;
  tgid?: number;
  mark: string;
  task?: string;
}

export function row(m: Mark): string {
  const tgid = m.tgid ?? m.pid;
  const task = m.task ?? 'NeuralNetworks';
  const secs = (100 + m.t / 1000).toFixed(6);
  return `  ${task}-${m.pid}  (${String(tgid).padStart(5)}) [001] ...1   ${secs}: tracing_mark_write: ${m.mark}`;
}

export const HEADER = ['# tracer: nop', '#', '#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION', '#              | |        |      |   ||||       |         |'];

/** A trace from `[t, mark]` pairs on one thread (pid 100 in process 100 unless given). */
export function thread(marks: [number, string][], pid = 100, tgid = pid, task = 'NeuralNetworks'): Mark[] {
  return marks.map(([t, mark]) => ({ t, pid, tgid, task, mark: mark === 'E' ? 'E' : mark.startsWith('B|') ? mark : `B|${tgid}|${mark}` }));
}

export function trace(...threads: Mark[][]): string {
  const all = threads.flat().map((m, i) => ({ m, i }));
  all.sort((a, b) => a.m.t - b.m.t || a.i - b.i);
  return [...HEADER, ...all.map(({ m }) => row(m))].join('\n') + '\n';
}
