import { range, type Diagnostic } from '../common/diagnostic';
import {
  duplicateEnqueue, duplicateIssue, duplicateStart, endBeforeStart, latencyMismatch, metaNotFirst, timeBackwards, unknownCmd, unmatchedEnd,
  unmatchedStart,
} from './crossLineProblems';
import { ID_FIELD, PAIRING_ROLE, PAIRINGS } from './eventTypes';
import type { Id, TraceLine } from './line';
import { locateIn } from './locate';
import { insertSorted, removeSorted } from './sorted';

/** The lines of one id in one check, in line order, and what the check says about them. */
interface Group {
  /** `c`: a cmd_id's enqueues and references; `j`: a job_id's JOB_ISSUEs; `p`: one pairing's STARTs and ENDs. */
  kind: 'c' | 'j' | 'p';
  /** The pairing, for `p`. */
  pi: number;
  id: Id;
  lines: number[];
  diags: Diagnostic[];
}

/**
 * The cross-line checks of `TraceChecker` (the same diagnostics, from `crossLineProblems.ts`),
 * kept up to date line by line for the editor. Every
 * check but two depends on the lines of one id only: the enqueues and references of a `cmd_id`,
 * the issues of a `job_id`, the STARTs and ENDs of one id in one pairing. Those lines form a group
 * (kept in line order); an edit re-checks only the groups of the old and new contents of the lines
 * it replaced. The other two are local too: a time going backwards needs the previous line with a
 * time, a misplaced TRACE_META the first event line.
 *
 * The fuzz test holds the two to the same diagnostics after any sequence of edits.
 */
export class TraceChecks {
  // Maps keyed by the id itself: a Map tells the number 5 from a string of digits.
  private readonly cmdGroups = new Map<Id, Group>();
  private readonly jobGroups = new Map<Id, Group>();
  private readonly pairGroups = PAIRINGS.map(() => new Map<Id, Group>());
  /** Groups that have diagnostics. */
  private readonly withDiags = new Set<Group>();
  private readonly timeDiags = new Map<number, Diagnostic>();
  private readonly localDiags = new Map<number, Diagnostic[]>();
  /** Lines with a CMD_ENQUEUE of some id: without any, references to unknown ids are not flagged. */
  private enqueues = 0;
  private metaDiags: Diagnostic[] = [];
  /** Lines with a TRACE_META event, in order. */
  private readonly metaLines: number[] = [];

  /** The build still to run, when it is done in slices (`advance`); it reads `lines` only. */
  private build: Iterator<void> | undefined;

  /** `sliced`: the build waits for `advance` (a 1M-line build takes seconds; an editor must answer meanwhile). */
  constructor(private lines: readonly TraceLine[], sliced = false) {
    this.build = this.building();
    if (!sliced) this.advance(() => true);
  }

  /** Runs the build while `more()` says so (asked every few hundred lines); true once it is complete. */
  advance(more: () => boolean): boolean {
    const b = this.build;
    if (!b) return true;
    while (more()) {
      if (b.next().done) {
        this.build = undefined;
        return true;
      }
    }
    return false;
  }

  // The loops run in plain methods, a slice per call: a loop inside a generator ran 2–3× slower.
  private *building(): Generator<void> {
    const n = this.lines.length;
    for (let i = 0; i < n; i += SLICE) {
      this.enterLines(i, Math.min(n, i + SLICE));
      yield;
    }
    for (const m of [this.cmdGroups, this.jobGroups, ...this.pairGroups]) {
      const groups = m.values();
      while (this.checkSome(groups)) yield;
    }
    for (let i = 0; i < n; i += SLICE) {
      for (let k = i; k < Math.min(n, i + SLICE); k++) this.checkTime(k);
      yield;
    }
    this.checkMeta();
  }

  private enterLines(from: number, to: number): void {
    const lines = this.lines;
    for (let i = from; i < to; i++) {
      this.enter(lines[i], i);
      if (lines[i].type === 'TRACE_META') this.metaLines.push(i);
    }
  }

  /** Checks up to SLICE groups; false once there are no more. */
  private checkSome(groups: Iterator<Group>): boolean {
    for (let k = 0; k < SLICE; k++) {
      const r = groups.next();
      if (r.done) return false;
      this.checkGroup(r.value);
    }
    return true;
  }

  /**
   * Lines `[start, end)` (which held `old`) were replaced by `newCount` lines; `lines` is the
   * document's array after the edit. The lines below move by the difference: their group entries
   * and diagnostics are shifted in place, not recomputed.
   */
  edited(lines: readonly TraceLine[], start: number, end: number, newCount: number, old: readonly TraceLine[]): void {
    this.begin(lines, start, end, newCount, old);
    this.advance(() => true);
  }

  /** The same, run by `advance` in slices: renumbering after an inserted line visits every id. */
  begin(lines: readonly TraceLine[], start: number, end: number, newCount: number, old: readonly TraceLine[]): void {
    // Work cut short must have ended before the lines changed again: it names the lines as they were.
    if (this.build) throw new Error('TraceChecks: an edit before the previous work ended');
    this.build = this.editing(lines, start, end, newCount, old);
  }

  private *editing(lines: readonly TraceLine[], start: number, end: number, newCount: number, old: readonly TraceLine[]): Generator<void> {
    const had = this.enqueues > 0;
    const touched = new Set<Group>();
    for (let k = start; k < end; k++) {
      if (old[k - start].type === 'TRACE_META') removeSorted(this.metaLines, k);
      this.leave(old[k - start], k, touched);
      this.timeDiags.delete(k);
    }
    const delta = newCount - (end - start);
    const times = delta !== 0 ? yield* this.shift(end, delta, touched) : [];
    this.lines = lines;
    for (let k = start; k < start + newCount; k++) {
      this.enter(lines[k], k, touched);
      if (lines[k].type === 'TRACE_META') insertSorted(this.metaLines, k);
    }
    if (had !== this.enqueues > 0) for (const g of this.cmdGroups.values()) touched.add(g);
    for (const g of touched) this.checkGroup(g);
    for (let k = start; k < start + newCount; k++) this.checkTime(k);
    for (const k of times) this.checkTime(k);
    const next = this.nextTimed(start + newCount);
    if (next >= 0) this.checkTime(next);
    this.checkMeta();
  }

  /**
   * Line numbers from `from` on move by `delta`: group entries, and diagnostics whose messages
   * stay true. A message naming a moved line ("first enqueued on line 7") is rebuilt instead: its
   * group goes into `recheck`, its time check into the returned lines (new numbers).
   */
  private *shift(from: number, delta: number, recheck: Set<Group>): Generator<void, number[]> {
    for (let k = this.metaLines.length - 1; k >= 0 && this.metaLines[k] >= from; k--) this.metaLines[k] += delta;
    // One map at a time between slices: a loop resumed inside a generator ran 1.5× slower.
    for (const m of [this.cmdGroups, this.jobGroups, ...this.pairGroups]) {
      shiftGroups(m, from, delta);
      yield;
    }
    const namesMoved = (d: Diagnostic) => d.related?.some((r) => r.range.start.line >= from) ?? false;
    const move = (d: Diagnostic) => {
      if (d.range.start.line < from) return;
      d.range.start.line += delta;
      d.range.end.line += delta;
    };
    for (const g of this.withDiags) {
      if (g.diags.some(namesMoved)) recheck.add(g);
      else g.diags.forEach(move);
    }
    const times: number[] = [];
    const movedTimes: [number, Diagnostic][] = [];
    for (const [line, d] of this.timeDiags) {
      if (line < from) continue;
      if (namesMoved(d)) times.push(line + delta);
      else {
        move(d);
        movedTimes.push([line + delta, d]);
      }
    }
    for (const [line] of [...this.timeDiags]) if (line >= from) this.timeDiags.delete(line);
    for (const [line, d] of movedTimes) this.timeDiags.set(line, d);
    const movedLocal: [number, Diagnostic[]][] = [];
    for (const [line, ds] of this.localDiags) {
      if (line < from) continue;
      ds.forEach(move);
      movedLocal.push([line + delta, ds]);
    }
    for (const [line] of movedLocal) this.localDiags.delete(line - delta);
    for (const [line, ds] of movedLocal) this.localDiags.set(line, ds);
    return times;
  }

  /** Every diagnostic, in no particular order (the caller sorts). */
  diagnostics(): Diagnostic[] {
    this.advance(() => true);
    const out: Diagnostic[] = [];
    for (const ds of this.localDiags.values()) for (const d of ds) out.push(d);
    for (const d of this.timeDiags.values()) out.push(d);
    for (const d of this.metaDiags) out.push(d);
    for (const g of this.withDiags) for (const d of g.diags) out.push(d);
    return out;
  }

  /** `touched` collects the groups to re-check (the constructor checks them all). */
  private enter(l: TraceLine, i: number, touched?: Set<Group>): void {
    if (l.local) this.localDiags.set(i, l.local.map((d) => ({ range: range(i, d.start, d.end), severity: d.severity, code: d.code, message: d.message })));
    this.memberships(l, (m, kind, pi, id) => {
      let g = m.get(id);
      if (!g) m.set(id, (g = { kind, pi, id, lines: [i], diags: NONE }));
      else insertSorted(g.lines, i);
      touched?.add(g);
      if (kind === 'c' && l.type === 'CMD_ENQUEUE') this.enqueues++;
    });
  }

  private leave(l: TraceLine, i: number, touched: Set<Group>): void {
    this.localDiags.delete(i);
    this.memberships(l, (m, kind, _pi, id) => {
      const g = m.get(id);
      if (!g) return;
      removeSorted(g.lines, i);
      touched.add(g);
      if (kind === 'c' && l.type === 'CMD_ENQUEUE') this.enqueues--;
    });
  }

  /** The groups line `l` belongs to, as (map, kind, pairing, id). */
  private memberships(l: TraceLine, each: (m: Map<Id, Group>, kind: Group['kind'], pi: number, id: Id) => void): void {
    const type = l.type;
    if (!l.event || !type) return;
    if (l.cmd !== undefined) each(this.cmdGroups, 'c', -1, l.cmd);
    if (type === 'JOB_ISSUE' && l.job !== undefined) each(this.jobGroups, 'j', -1, l.job);
    const role = PAIRING_ROLE.get(type);
    if (!role) return;
    const pair = (pi: number) => {
      const id = pi < 0 ? undefined : idOf(l, pi);
      if (id !== undefined) each(this.pairGroups[pi], 'p', pi, id);
    };
    pair(role.start);
    pair(role.end);
  }

  private at(line: number, key: string): [number, number] {
    return locateIn(this.lines[line], key);
  }

  private checkGroup(g: Group): void {
    if (g.lines.length === 0) {
      (g.kind === 'c' ? this.cmdGroups : g.kind === 'j' ? this.jobGroups : this.pairGroups[g.pi]).delete(g.id);
      g.diags = NONE;
    } else g.diags = g.kind === 'c' ? this.checkCmd(g.lines) : g.kind === 'j' ? this.checkIssues(g.lines) : this.checkPairs(g.pi, g.lines);
    if (g.diags.length) this.withDiags.add(g);
    else this.withDiags.delete(g);
  }

  /** Enqueues of one cmd_id after the first; references to it when it is never enqueued. */
  private checkCmd(g: number[]): Diagnostic[] {
    let out = NONE;
    let first = -1;
    for (const i of g) {
      if (this.lines[i].type !== 'CMD_ENQUEUE') continue;
      if (first < 0) first = i;
      else out = add(out, duplicateEnqueue(i, this.at(i, 'cmd_id'), this.lines[i].cmd!, first, this.at(first, 'cmd_id')));
    }
    if (first < 0 && this.enqueues > 0) for (const i of g) out = add(out, unknownCmd(i, this.at(i, 'cmd_id'), this.lines[i].cmd!));
    return out;
  }

  /** Issues of one job_id after the first. */
  private checkIssues(g: number[]): Diagnostic[] {
    let out = NONE;
    const first = g[0];
    for (let k = 1; k < g.length; k++) out = add(out, duplicateIssue(g[k], this.at(g[k], 'job_id'), this.lines[g[k]].job!, first, this.at(first, 'job_id')));
    return out;
  }

  /** The STARTs and ENDs of one id in one pairing, in line order, as `TraceChecker` pairs them. */
  private checkPairs(pi: number, g: number[]): Diagnostic[] {
    const p = PAIRINGS[pi];
    let out = NONE;
    let open = -1;
    for (const i of g) {
      const l = this.lines[i];
      const id = idOf(l, pi)!;
      if (l.type === p.start) {
        if (open >= 0 && p.start !== 'JOB_ISSUE') out = add(out, duplicateStart(p, i, this.at(i, p.key), id, open, this.at(open, p.key)));
        open = i;
        continue;
      }
      if (open < 0) {
        out = add(out, unmatchedEnd(p, i, this.at(i, p.key), id));
        continue;
      }
      const s = this.lines[open];
      const sLine = open;
      open = -1;
      if (l.t === undefined || s.t === undefined) continue;
      if (l.t < s.t) out = add(out, endBeforeStart(p, i, this.at(i, 't_cycle'), l.t, s.t, sLine, this.at(sLine, 't_cycle')));
      else if (p.latency && l.latency !== undefined && l.latency !== l.t - s.t) {
        out = add(out, latencyMismatch(p, i, this.at(i, 'latency_cycles'), l.latency, l.t, s.t, sLine, this.at(sLine, 't_cycle')));
      }
    }
    if (open >= 0) out = add(out, unmatchedStart(p, open, this.at(open, p.key), idOf(this.lines[open], pi)!));
    return out;
  }

  private nextTimed(from: number): number {
    for (let j = from; j < this.lines.length; j++) if (this.lines[j].t !== undefined && this.lines[j].event) return j;
    return -1;
  }

  /** `trace.time-backwards` on line `i`: its time against the previous line that has one. */
  private checkTime(i: number): void {
    this.timeDiags.delete(i);
    const l = this.lines[i];
    if (!l.event || l.t === undefined) return;
    let p = i - 1;
    while (p >= 0 && !(this.lines[p].event && this.lines[p].t !== undefined)) p--;
    if (p < 0) return;
    const prevT = this.lines[p].t!;
    if (l.t < prevT) {
      this.timeDiags.set(i, timeBackwards(i, this.at(i, 't_cycle'), l.t, prevT, p, this.at(p, 't_cycle')));
    }
  }

  /** TRACE_META anywhere but on the first event line: the first event, then the few META lines. */
  private checkMeta(): void {
    this.metaDiags = [];
    if (this.metaLines.length === 0) return;
    let first = 0;
    while (first < this.lines.length && !this.lines[first].event) first++;
    for (const i of this.metaLines) {
      if (i === first || !this.lines[i].event) continue;
      this.metaDiags.push(metaNotFirst(i, this.at(i, 'event_type'), first));
    }
  }

}

/** Lines (or groups) per slice of the build. */
const SLICE = 2048;

/** The diagnostics of a group with none (most groups): one shared empty list, never written. */
const NONE: Diagnostic[] = [];

/** `list` with `d` added; the shared empty list is replaced, not written. */
function add(list: Diagnostic[], d: Diagnostic): Diagnostic[] {
  if (list === NONE) return [d];
  list.push(d);
  return list;
}

function shiftGroups(m: Map<Id, Group>, from: number, delta: number): void {
  for (const { lines: g } of m.values()) for (let k = g.length - 1; k >= 0 && g[k] >= from; k--) g[k] += delta;
}

function idOf(l: TraceLine, pi: number): Id | undefined {
  return l[ID_FIELD[PAIRINGS[pi].key]];
}
