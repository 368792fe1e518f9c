/**
 * One line of a systrace/ftrace text trace, read with the two row regexes of the reference
 * (rules §1). Only `tracing_mark_write` rows count; everything else (sched events, comments, HTML)
 * is `undefined` unless it mentions NNAPI marks without parsing, which is an input error.
 */

// The reference's regexes, verbatim: new rows carry a `( tgid)` column, old rows do not.
const NEW_ROW = /^\s*([^ ].{1,15})-(\d+)\s+\(\s*([-0-9]+)\) .* (\d+\.\d+): tracing_mark_write: ([BE].*)$/;
const OLD_ROW = /^\s*([^ ].{1,15})-(\d+) .* (\d+\.\d+): tracing_mark_write: ([BE].*)$/;

const MARKER = 'tracing_mark_write: ';

export interface MarkRow {
  kind: 'row';
  task: string;
  pid: string;
  /** The `( tgid)` column as written (may be `-----`); undefined for old rows without it. */
  tgidColumn: string | undefined;
  /** Seconds, as the trace prints them. */
  time: number;
  /** `B|<tgid>|<text>`, `E` or `E|<tgid>`. */
  mark: string;
  /** Column of the mark in the line. */
  markCol: number;
}

export interface UnparsedRow {
  kind: 'unparsed';
  /** What the line mentions that made it count. */
  mentions: string;
  start: number;
  end: number;
}

/** The header line that starts the text trace inside a systrace HTML file. */
export interface HeaderLine {
  kind: 'header';
}
/** A line containing `</script>`: ends the text trace of an HTML file. */
export interface ScriptEnd {
  kind: 'script-end';
}

export type RowLine = MarkRow | UnparsedRow | HeaderLine | ScriptEnd;

const HEADERS = [
  '#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION',
  '#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION',
];
const HEADER = { kind: 'header' } as const;
const SCRIPT_END = { kind: 'script-end' } as const;
const MENTIONS = ['[NN_', 'HIDL::IDevice', 'tracing_mark_write: B', 'tracing_mark_write: E'];

export function parseRowLine(line: string): RowLine | undefined {
  const hasMarker = line.includes(MARKER);
  if (hasMarker) {
    const m = NEW_ROW.exec(line);
    if (m) return row(line, m[1], m[2], m[3], m[4], m[5]);
    const o = OLD_ROW.exec(line);
    if (o) return row(line, o[1], o[2], undefined, o[3], o[4]);
  }
  // Header and `</script>` are checked only on lines that are not rows, as the reference does
  // (a row cannot contain them in practice, and a row must stay a row).
  if (line.includes('</script>')) return SCRIPT_END;
  if (HEADERS.some((h) => line.includes(h))) return HEADER;
  if (!hasMarker && !line.includes('[NN_') && !line.includes('HIDL::IDevice')) return undefined;
  for (const s of MENTIONS) {
    const i = line.indexOf(s);
    if (i >= 0) {
      const lead = line.length - line.trimStart().length;
      return { kind: 'unparsed', mentions: s, start: lead, end: Math.max(lead, line.trimEnd().length) };
    }
  }
  return undefined;
}

function row(line: string, task: string, pid: string, tgid: string | undefined, timeText: string, mark: string): MarkRow {
  return { kind: 'row', task, pid, tgidColumn: tgid, time: Number(timeText), mark, markCol: line.length - mark.length };
}

/** Whether a file's first line says it is HTML (a systrace HTML export) rather than plain text. */
export function looksLikeHtml(firstLine: string): boolean {
  const t = firstLine.trimStart().toLowerCase();
  return t.startsWith('<!doctype html') || t.startsWith('<html') || t.startsWith('<!--') || t.startsWith('<head');
}
