import type { TimelineModel } from '../timeline/model';

/** A Chrome process (`pid`) or thread (`tid`) with the name its `M` event gives it. */
export interface Named {
  id: number;
  name: string;
  /** The pid of a thread. */
  pid: number;
  sort: number;
}

/** Where each row's items go, and the processes and threads to name. */
export interface ThreadMap {
  processes: Named[];
  threads: Named[];
  /** pid and tid of each row of the model. */
  rowPid: Uint32Array;
  rowTid: Uint32Array;
  /** pid of each counter (its track's top-level group), and its name within that process. */
  counterPid: Uint32Array;
  counterName: string[];
}

/**
 * One pid per top-level group (an NPU, a process), one tid per slices track. A track whose lanes
 * overlap without nesting (two DMA transfers that cross) gets one tid per lane instead: Chrome and
 * Perfetto stack slices of one thread by nesting, and drop or mis-draw slices that cross.
 */
export function mapThreads(m: TimelineModel): ThreadMap {
  const { tracks } = m;
  const processes: Named[] = [];
  const threads: Named[] = [];
  const rowCount = m.rowItemStart.length - 1;
  const rowPid = new Uint32Array(Math.max(0, rowCount));
  const rowTid = new Uint32Array(Math.max(0, rowCount));
  const pidOfTrack = new Int32Array(tracks.length).fill(-1);
  const counterPid = new Uint32Array(m.counters.length);
  const counterName: string[] = m.counters.map((c) => c.name);
  let loosePid = -1;
  for (let t = 0; t < tracks.length; t++) {
    const tr = tracks[t];
    let pid: number;
    if (tr.parent < 0) {
      if (tr.kind === 'group') {
        pid = processes.length + 1;
        processes.push({ id: pid, name: tr.name, pid, sort: processes.length });
      } else {
        // A track at the top (no group): they share one process named after the format.
        if (loosePid < 0) {
          loosePid = processes.length + 1;
          processes.push({ id: loosePid, name: m.format, pid: loosePid, sort: processes.length });
        }
        pid = loosePid;
      }
    } else pid = pidOfTrack[tr.parent];
    pidOfTrack[t] = pid;
    const path = pathBelowProcess(m, t);
    if (tr.kind === 'counter' && tr.counter >= 0) {
      counterPid[tr.counter] = pid;
      counterName[tr.counter] = path;
    }
    if (tr.kind !== 'slices' || tr.rowCount === 0) continue;
    const oneThread = tr.rowCount === 1 || nests(m, tr.rowStart, tr.rowCount);
    for (let k = 0; k < tr.rowCount; k++) {
      const r = tr.rowStart + k;
      if (k === 0 || !oneThread) {
        const tid = threads.length + 1;
        threads.push({ id: tid, name: oneThread || k === 0 ? path : `${path} (${k + 1})`, pid, sort: threads.length });
      }
      rowPid[r] = pid;
      rowTid[r] = threads.length;
    }
  }
  return { processes, threads, rowPid, rowTid, counterPid, counterName };
}

/** "Core 0 / TE": the track's name under its process, so threads of one process are told apart. */
function pathBelowProcess(m: TimelineModel, t: number): string {
  const parts: string[] = [];
  for (let k = t; k >= 0 && m.tracks[k].parent >= 0; k = m.tracks[k].parent) parts.push(m.tracks[k].name);
  if (parts.length === 0) parts.push(m.tracks[t].name);
  return parts.reverse().join(' / ');
}

/** Whether the items of these rows, merged, nest (each one ends before the one around it does). */
function nests(m: TimelineModel, rowStart: number, rowCount: number): boolean {
  const { start, end } = m.items;
  const from = m.rowItemStart[rowStart], to = m.rowItemStart[rowStart + rowCount];
  const idx = new Uint32Array(to - from);
  for (let i = 0; i < idx.length; i++) idx[i] = from + i;
  // Outer before inner at equal starts, so a parent is on the stack before its children.
  idx.sort((a, b) => start[a] - start[b] || end[b] - end[a]);
  const stack: number[] = [];
  for (const i of idx) {
    while (stack.length && end[stack[stack.length - 1]] <= start[i]) stack.pop();
    if (stack.length && end[i] > end[stack[stack.length - 1]]) return false;
    stack.push(i);
  }
  return true;
}
