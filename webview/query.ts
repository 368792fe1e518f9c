import { lowerBound } from '../core/common/bounds';
import { ATTRS, FLAG, NO_LINE, type TimelineModel } from '../core/timeline/model';

/** lowerBound over the items listed in `ix` (positions lo..hi of it), or over [lo, hi) itself when there is no list. */
export function lowerBoundVia(a: Float64Array, ix: Uint32Array | undefined, lo: number, hi: number, x: number): number {
  if (!ix) return lowerBound(a, lo, hi, x);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[ix[mid]] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * lowerBoundVia for a target expected near `lo`: probes lo, lo+1, lo+3, lo+7… until a value ≥ x,
 * then searches only the last gap. It reads O(log d) values, all near lo, where d is the answer's
 * distance from lo; a plain binary search over [lo, hi) starts in the middle of the row, a cache miss
 * per step in a 10M-event model's columns.
 */
export function gallopVia(a: Float64Array, ix: Uint32Array | undefined, lo: number, hi: number, x: number): number {
  let probe = lo, step = 1;
  if (ix) {
    while (probe < hi && a[ix[probe]] < x) {
      lo = probe + 1;
      probe += step;
      step *= 2;
    }
  } else {
    while (probe < hi && a[probe] < x) {
      lo = probe + 1;
      probe += step;
      step *= 2;
    }
  }
  return lowerBoundVia(a, ix, lo, Math.min(probe, hi), x);
}

/** Row of every item and the line → item map, built once per model. */
export class ModelIndex {
  readonly rowOfItem: Uint16Array | Uint32Array;
  readonly trackOfRow: Uint32Array;
  /** Item drawn from each source line (its START, END or instant), -1 for none. */
  readonly itemOfLine: Int32Array;
  /**
   * Per row: 1 when ends are in order too (lanes never overlap), so the first visible item is found
   * by its end even when one long span would make "start ≥ view start − longest" scan the whole row.
   */
  readonly endsSorted: Uint8Array;

  constructor(readonly m: TimelineModel) {
    const rows = m.rowItemStart.length - 1;
    const n = m.items.start.length;
    this.rowOfItem = rows < 0xffff ? new Uint16Array(n) : new Uint32Array(n);
    for (let r = 0; r < rows; r++) this.rowOfItem.fill(r, m.rowItemStart[r], m.rowItemStart[r + 1]);
    this.trackOfRow = new Uint32Array(rows);
    m.tracks.forEach((t, k) => { if (t.kind === 'slices') this.trackOfRow.fill(k, t.rowStart, t.rowStart + t.rowCount); });
    this.endsSorted = new Uint8Array(rows);
    const { end } = m.items;
    for (let r = 0; r < rows; r++) {
      let ok = 1;
      for (let i = m.rowItemStart[r] + 1; i < m.rowItemStart[r + 1]; i++) if (end[i] < end[i - 1]) { ok = 0; break; }
      this.endsSorted[r] = ok;
    }
    this.itemOfLine = new Int32Array(m.lineCount).fill(-1);
    const { line, endLine } = m.items;
    for (let i = 0; i < n; i++) {
      if (line[i] < m.lineCount) this.itemOfLine[line[i]] = i;
      if (endLine[i] !== NO_LINE && endLine[i] < m.lineCount) this.itemOfLine[endLine[i]] = i;
    }
    // The other lines of a pretty-printed event: the cursor on its "name" or "args" finds it too.
    const last = m.lastLine;
    if (last) {
      for (let i = 0; i < n; i++) {
        for (let l = line[i] + 1; l <= last[i] && l < m.lineCount; l++) if (this.itemOfLine[l] < 0) this.itemOfLine[l] = i;
      }
    }
  }

  attr(i: number, a: number): string {
    return this.m.strings[this.m.ctxAttrs[this.m.items.ctx[i] * ATTRS.length + a]];
  }
}

/** Items related to `sel`: its command, the jobs of that command, and its transfers. */
export function linkedItems(ix: ModelIndex, sel: number, kinds: { command: number; job: number; transfer: readonly number[] }, limit = 50): { command: number[]; jobs: number[]; transfers: number[] } {
  const m = ix.m;
  const cmdAttr = ATTRS.indexOf('cmd_id');
  const cmd = ix.attr(sel, cmdAttr);
  const out = { command: [] as number[], jobs: [] as number[], transfers: [] as number[] };
  if (!cmd) return out;
  const { kind, start } = m.items;
  for (let i = 0; i < start.length; i++) {
    if (i === sel || ix.attr(i, cmdAttr) !== cmd) continue;
    const k = kind[i];
    if (k === kinds.command && out.command.length < limit) out.command.push(i);
    else if (k === kinds.job && out.jobs.length < limit) out.jobs.push(i);
    else if (kinds.transfer.includes(k) && out.transfers.length < limit) out.transfers.push(i);
  }
  const byStart = (a: number, b: number) => start[a] - start[b];
  out.jobs.sort(byStart);
  out.transfers.sort(byStart);
  return out;
}

export interface RangeSummary {
  events: number;
  /** Per slices track: busy fraction of the range and bytes moved within it. */
  tracks: { track: number; busy: number; bytes: number }[];
}

/** Events inside [a, b] and, per track, busy share and bytes (pro rata for spans that cross the edges). */
export function summarizeRange(ix: ModelIndex, a: number, b: number, pass: (i: number) => boolean): RangeSummary {
  const m = ix.m;
  const { start, end, endLine, flags, bytes } = m.items;
  let events = 0;
  const len = Math.max(b - a, 1e-9);
  const tracks: RangeSummary['tracks'] = [];
  m.tracks.forEach((t, k) => {
    if (t.kind !== 'slices') return;
    let busy = 0, moved = 0;
    for (let r = t.rowStart; r < t.rowStart + t.rowCount; r++) {
      const hi = m.rowItemStart[r + 1];
      for (let i = lowerBound(start, m.rowItemStart[r], hi, a - m.rowMaxDur[r]); i < hi && start[i] <= b; i++) {
        if (end[i] < a || !pass(i)) continue;
        if (start[i] >= a) events++;
        if (!(flags[i] & FLAG.instant) && endLine[i] !== NO_LINE && end[i] <= b) events++;
        if (flags[i] & FLAG.instant) continue;
        const ov = Math.min(end[i], b) - Math.max(start[i], a);
        if (ov <= 0) continue;
        busy += ov;
        moved += bytes[i] * (end[i] > start[i] ? ov / (end[i] - start[i]) : 1);
      }
    }
    if (busy > 0 || moved > 0) tracks.push({ track: k, busy: Math.min(1, busy / len), bytes: moved });
  });
  return { events, tracks };
}
