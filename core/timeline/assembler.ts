import { StringTable } from '../common/stringTable';
import { ItemBuffer } from './columns';
import { computeCounter, type CounterSpec } from './counters';
import { ATTRS, FLAG, NO_LINE, type Counter, type TimelineModel, type TrackInfo } from './model';

/**
 * Format-neutral half of every builder: interns strings and contexts, creates tracks on demand,
 * collects items, and at the end lays them out (lanes, rows, sort) and computes counters.
 */
export class TimelineAssembler {
  readonly items = new ItemBuffer();
  private readonly strings = new StringTable(['']);
  private readonly ctxAttrs: number[] = [];
  private readonly ctxIndex = new Map<string, number>();
  private readonly nodes: { name: string; parent: number; order: number; kind: TrackInfo['kind']; stack: boolean; counter?: CounterSpec; flags?: number }[] = [];
  private readonly nodeIndex = new Map<string, number>();
  t0 = Infinity;
  t1 = -Infinity;
  /** After `finish`: model item k is the item added `order[k]`-th, so a builder can reorder columns of its own. */
  order: Uint32Array = new Uint32Array(0);
  /** After `finish`: the model track of each track made here (by the index `track`/`group` returned). */
  trackIndex: Int32Array = new Int32Array(0);

  constructor(readonly format: string) {
    this.context([]);
  }

  intern(s: string): number {
    return this.strings.id(s);
  }

  /** The context holding these attribute values (in ATTRS order; missing = absent). */
  context(values: readonly (string | undefined)[]): number {
    // Keyed by the values themselves: one string per event, interning only for new contexts.
    let key = '';
    for (let k = 0; k < ATTRS.length; k++) key += (values[k] === undefined ? '\u0002' : values[k]) + '\u0001';
    let c = this.ctxIndex.get(key);
    if (c === undefined) {
      c = this.ctxAttrs.length / ATTRS.length;
      for (let k = 0; k < ATTRS.length; k++) this.ctxAttrs.push(values[k] === undefined ? 0 : this.intern(values[k]!));
      this.ctxIndex.set(key, c);
    }
    return c;
  }

  private node(parent: number, name: string, order: number, kind: TrackInfo['kind'], stack: boolean, counter?: CounterSpec): number {
    const key = `${parent}\u0000${name}`;
    let n = this.nodeIndex.get(key);
    if (n === undefined) {
      n = this.nodes.length;
      this.nodes.push({ name, parent, order, kind, stack, counter });
      this.nodeIndex.set(key, n);
    }
    return n;
  }

  /** A group track (npu, core, process...). `order` sorts siblings before their names do. */
  group(parent: number, name: string, order: number): number {
    return this.node(parent, name, order, 'group', false);
  }

  /** Changes the sort key of a track or group made earlier (an order a file gives after its first use). */
  setOrder(node: number, order: number): void {
    this.nodes[node].order = order;
  }

  /** A track of items. `stack`: overlapping items go to extra rows (lanes); else one row. */
  /** Sets TRACK_FLAG bits on a track (a node index from `track` / `group`). */
  flagTrack(node: number, flags: number): void {
    this.nodes[node].flags = (this.nodes[node].flags ?? 0) | flags;
  }

  track(parent: number, name: string, order: number, stack = true): number {
    return this.node(parent, name, order, 'slices', stack);
  }

  /** A counter track computed at the end from the items of other tracks. */
  counter(parent: number, name: string, order: number, spec: CounterSpec): number {
    return this.node(parent, name, order, 'counter', false, spec);
  }

  add(track: number, start: number, end: number, line: number, name: number, id: number, ctx: number, bytes: number, kind: number, flags: number): number {
    const it = this.items;
    const i = it.length;
    it.start.push(start); it.end.push(end); it.line.push(line); it.endLine.push(NO_LINE);
    it.name.push(name); it.id.push(id); it.ctx.push(ctx); it.bytes.push(bytes);
    it.kind.push(kind); it.flags.push(flags); it.track.push(track);
    this.seen(start);
    if (end === end) this.seen(end);
    return i;
  }

  seen(t: number): void {
    if (t < this.t0) this.t0 = t;
    if (t > this.t1) this.t1 = t;
  }

  /** Closes item `i` (added with end NaN) at `end` seen on `endLine`. */
  close(i: number, end: number, endLine: number, flags = 0): void {
    const it = this.items;
    const start = it.start.data[i];
    if (end < start) {
      // Drawn between the two times so it stays visible; the flag says which way round it was.
      it.start.data[i] = end;
      it.end.data[i] = start;
      flags |= FLAG.endBeforeStart;
    } else it.end.data[i] = end;
    it.endLine.data[i] = endLine;
    it.flags.data[i] |= flags;
    this.seen(end);
  }

  /**
   * The model of everything added so far. Leaves the assembler as it was, so a builder can show a
   * preview of a large file and then go on reading; with `release`, the last call, the items here
   * are let go as the model's are made (a million items are ~60 MB a copy).
   */
  finish(extra: { lineCount: number; undrawable: number; nsPerCycle: number | undefined }, release = false): TimelineModel {
    const empty = this.t0 > this.t1;
    const t0 = empty ? 0 : this.t0, t1 = empty ? 0 : this.t1;
    const it = this.items;
    const n = it.length;
    // Items still open run to the end of the trace, marked as unmatched (undone after the copy).
    const open: number[] = [];
    for (let i = 0; i < n; i++) {
      if (it.end.data[i] !== it.end.data[i]) {
        open.push(i);
        it.end.data[i] = t1;
        it.flags.data[i] |= FLAG.unmatchedStart;
      }
    }
    const order = this.trackOrder();
    const tracks: TrackInfo[] = [];
    const newIndex = new Int32Array(this.nodes.length);
    order.forEach((old, k) => (newIndex[old] = k));
    this.trackIndex = newIndex;
    // Bucket items by track, each bucket in start order (traces are nearly sorted: cheap).
    const byTrack: number[][] = this.nodes.map(() => []);
    for (let i = 0; i < n; i++) byTrack[it.track.data[i]].push(i);
    const sortedItems = new Uint32Array(n);
    const rowStarts: number[] = [];
    const rowMax: number[] = [];
    let pos = 0;
    const counters: Counter[] = [];
    const counterTracks: { info: TrackInfo; spec: CounterSpec }[] = [];
    for (const old of order) {
      const nd = this.nodes[old];
      const info: TrackInfo = { name: nd.name, parent: nd.parent < 0 ? -1 : newIndex[nd.parent], kind: nd.kind, rowStart: rowStarts.length, rowCount: 0, counter: -1 };
      if (nd.flags) info.flags = nd.flags;
      tracks.push(info);
      if (nd.kind === 'counter') counterTracks.push({ info, spec: nd.counter! });
      if (nd.kind !== 'slices') continue;
      const list = byTrack[old];
      list.sort((a, b) => it.start.data[a] - it.start.data[b] || a - b);
      const lanes = nd.stack ? assignLanes(list, it.start.data, it.end.data) : [list];
      for (const lane of lanes) {
        rowStarts.push(pos);
        let max = 0;
        for (const i of lane) {
          sortedItems[pos++] = i;
          const d = it.end.data[i] - it.start.data[i];
          if (d > max) max = d;
        }
        rowMax.push(max);
      }
      info.rowCount = lanes.length;
    }
    rowStarts.push(pos);
    this.order = sortedItems;
    const items = it.take(sortedItems, release);
    if (!release) for (const i of open) {
      it.end.data[i] = NaN;
      it.flags.data[i] &= ~FLAG.unmatchedStart;
    }
    const trackOfOld = (t: number) => newIndex[t];
    for (const { info, spec } of counterTracks) {
      info.counter = counters.length;
      counters.push(computeCounter(spec, info.name, items, tracks, Uint32Array.from(rowStarts), t0, t1, trackOfOld));
    }
    return {
      format: this.format, strings: this.strings.list, tracks,
      rowItemStart: Uint32Array.from(rowStarts), rowMaxDur: Float64Array.from(rowMax),
      items, ctxAttrs: Uint32Array.from(this.ctxAttrs), counters,
      t0, t1, ...extra,
    };
  }

  /** Depth-first order of the track tree; siblings by `order`, then by name with numbers compared as numbers. */
  private trackOrder(): number[] {
    const children = new Map<number, number[]>();
    this.nodes.forEach((nd, i) => {
      const a = children.get(nd.parent) ?? [];
      a.push(i);
      children.set(nd.parent, a);
    });
    const out: number[] = [];
    const visit = (p: number) => {
      const ks = children.get(p);
      if (!ks) return;
      ks.sort((a, b) => this.nodes[a].order - this.nodes[b].order || collator.compare(this.nodes[a].name, this.nodes[b].name));
      for (const k of ks) {
        out.push(k);
        visit(k);
      }
    };
    visit(-1);
    return out;
  }
}

const collator = new Intl.Collator('en', { numeric: true });

/** More lanes than this would make a track unreadable; the rest share the last lane. */
const MAX_LANES = 16;

/** Greedy interval partitioning: each item goes to the first lane free at its start. */
function assignLanes(list: number[], start: Float64Array, end: Float64Array): number[][] {
  const laneEnd: number[] = [];
  const lanes: number[][] = [];
  for (const i of list) {
    const s = start[i];
    let l = 0;
    while (l < laneEnd.length && laneEnd[l] > s) l++;
    if (l === MAX_LANES) l = MAX_LANES - 1;
    if (l === laneEnd.length) {
      laneEnd.push(end[i]);
      lanes.push([i]);
    } else {
      laneEnd[l] = Math.max(laneEnd[l], end[i]);
      lanes[l].push(i);
    }
  }
  return lanes.length ? lanes : [[]];
}
