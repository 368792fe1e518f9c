import type { Position, Range } from '../common/diagnostic';

/**
 * Where each flow's start is, and the flow steps and ends that point at it, so Go to Definition on
 * an `f` or `t` event reaches its `s` (a flow arrow's far end, as Perfetto draws it from there) and
 * Find References on an `s` lists its ends. Events come in document order, so a lookup by position
 * is a binary search.
 */
const MAX_FLOW_EVENTS = 1_000_000;

export class FlowIndex {
  private readonly starts = new Map<string, Range>();
  /** Every flow event (s, t, f) in document order, with its key. */
  private readonly events: { range: Range; key: string; start: boolean }[] = [];

  add(key: string, range: Range, start: boolean): void {
    // A file can hold any number of flows: past this many, later ones get no navigation.
    if (this.events.length >= MAX_FLOW_EVENTS) return;
    if (start && !this.starts.has(key)) this.starts.set(key, range);
    this.events.push({ range, key, start });
  }

  /** The start of the flow of the event at `pos` (itself for an `s`). */
  startAt(pos: Position): Range | undefined {
    const e = this.at(pos);
    return e ? this.starts.get(e.key) : undefined;
  }

  /** Every event of the flow of the event at `pos`, its start first; at most `max`. */
  flowAt(pos: Position, max = 1000): Range[] {
    const e = this.at(pos);
    if (!e) return [];
    const out: Range[] = [];
    for (const x of this.events) {
      if (x.key !== e.key) continue;
      out.push(x.range);
      if (out.length >= max) break;
    }
    return out;
  }

  private at(pos: Position): { range: Range; key: string; start: boolean } | undefined {
    let lo = 0, hi = this.events.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = this.events[mid].range;
      if (before(pos, r.start)) hi = mid - 1;
      else if (before(r.end, pos)) lo = mid + 1;
      else return this.events[mid];
    }
    return undefined;
  }
}

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character < b.character);
