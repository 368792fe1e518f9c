import { lengthOf, unionOf } from '../../common/intervals';
import type { CmdqGraph } from '../graph';
import type { CmdqEntry } from '../model';
import { entryCost, type CostModel } from './cost';
import { compareEngines, engineKey } from './engines';
import { ReadyHeap } from './heap';

/** Cycles listed by the analysis; members listed per cycle (the checker reports every one). */
export const MAX_CYCLES = 100;
export const MAX_CYCLE_MEMBERS = 30;

export interface EngineLoad {
  engine: string;
  entries: number;
  /**
   * Cycles the engine runs in the list-scheduled run: the length of the union of its scheduled
   * entries' [start, start + cost). A blocked entry never runs, so it adds nothing (it counts in
   * `entries`); busy never exceeds the makespan.
   */
  busy: number;
  /** Cycles of the critical path spent on this engine. */
  critical: number;
}

/**
 * The schedule a queue implies, by entry index. Times are cycles from the start of the queue.
 * An entry in a dependency cycle, waiting for itself, or waiting (transitively) for one of those
 * can never start: it is *blocked*, with level -1 and NaN times, and takes no part in the rest.
 */
export interface GraphAnalysis {
  n: number;
  cost: Float64Array;
  /** Index into `engines` of the unit each entry occupies, -1 for none (END, unknown opcode). */
  engineOf: Int32Array;
  engines: string[];
  /** Dependency depth: 0 for an entry that waits for nothing, else 1 + the deepest dep. */
  level: Int32Array;
  /** Entries per level. */
  levelCounts: number[];
  /** Earliest start with unlimited engines (longest cost path from a root) and its slack. */
  earliestStart: Float64Array;
  slack: Float64Array;
  /** Start in the list-scheduling simulation: one entry at a time per engine. */
  start: Float64Array;
  /** Longest dependency chain by cost: its entries root first, and its length in cycles. */
  criticalPath: number[];
  criticalLength: number;
  onCritical: Uint8Array;
  /** End of the last entry of the simulated schedule. */
  makespan: number;
  load: EngineLoad[];
  blocked: number;
  /** The first MAX_CYCLES cycles (as one concrete loop each, MAX_CYCLE_MEMBERS members at most) and how many there are. */
  cycles: number[][];
  cycleCount: number;
}

/**
 * Levels, costs, earliest starts, slack, the critical path and a list-scheduled run of a queue,
 * in O(entries + deps) plus a heap per ready entry. Unresolved deps (`cmdq.unknown-dep`) are no
 * edges; forward deps are edges like any other (engines need no queue order); a cycle makes its
 * members and their descendants blocked, never a hang.
 */
export function analyzeGraph(entries: readonly CmdqEntry[], g: CmdqGraph, model: CostModel): GraphAnalysis {
  const n = g.n;
  const cost = new Float64Array(n);
  const engineOf = new Int32Array(n).fill(-1);
  const engineIds = new Map<string, number>();
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    cost[i] = entryCost(entries[i], model);
    const k = engineKey(entries[i]);
    if (k === undefined) continue;
    let id = engineIds.get(k);
    if (id === undefined) engineIds.set(k, (id = names.push(k) - 1));
    engineOf[i] = id;
  }

  // Kahn's order over distinct deps (dependents() lists each once; a self-dep never reaches 0).
  const pending = new Int32Array(n);
  // Dependents by index into g.rev, not g.dependents(): no subarray per entry (100k+ of them, 4 passes).
  const rev = g.rev, revStart = g.revStart, revEnd = new Int32Array(n);
  for (let i = 0; i < n; i++) revEnd[i] = revStart[i] + g.dependentCount(i);
  for (let i = 0; i < n; i++) for (let e = revStart[i]; e < revEnd[i]; e++) pending[rev[e]]++;
  const order = new Int32Array(n);
  let len = 0;
  for (let i = 0; i < n; i++) if (pending[i] === 0) order[len++] = i;
  for (let q = 0; q < len; q++) {
    const i = order[q];
    for (let e = revStart[i]; e < revEnd[i]; e++) if (--pending[rev[e]] === 0) order[len++] = rev[e];
  }

  const level = new Int32Array(n).fill(-1);
  const est = new Float64Array(n).fill(NaN);
  let criticalLength = 0;
  let sink = -1;
  for (let q = 0; q < len; q++) {
    const i = order[q];
    let lv = 0, t = 0;
    for (let e = g.edgeStart[i]; e < g.edgeStart[i + 1]; e++) {
      const d = g.targets[e];
      if (d < 0) continue;
      if (level[d] + 1 > lv) lv = level[d] + 1;
      if (est[d] + cost[d] > t) t = est[d] + cost[d];
    }
    level[i] = lv;
    est[i] = t;
    // The path ends at the entry that ends last; on a tie the deepest (END rather than what it
    // waits for), then the first in the queue.
    const end = t + cost[i];
    if (sink < 0 || end > criticalLength || (end === criticalLength && (lv > level[sink] || (lv === level[sink] && i < sink)))) {
      sink = i;
      criticalLength = end;
    }
  }
  const slack = new Float64Array(n).fill(NaN);
  for (let q = len - 1; q >= 0; q--) {
    const i = order[q];
    let lft = criticalLength;
    for (let e = revStart[i]; e < revEnd[i]; e++) {
      const d = rev[e];
      if (level[d] >= 0 && est[d] + slack[d] < lft) lft = est[d] + slack[d];
    }
    slack[i] = lft - cost[i] - est[i];
  }

  const criticalPath: number[] = [];
  const onCritical = new Uint8Array(n);
  for (let i = sink; i >= 0; ) {
    criticalPath.push(i);
    onCritical[i] = 1;
    let next = -1;
    for (let e = g.edgeStart[i]; e < g.edgeStart[i + 1] && next < 0; e++) {
      const d = g.targets[e];
      if (d >= 0 && level[d] >= 0 && est[d] + cost[d] === est[i] && !onCritical[d]) next = d;
    }
    i = next;
  }
  criticalPath.reverse();

  const { start, makespan } = listSchedule(g, revEnd, cost, engineOf, names.length, order.subarray(0, len), level);

  const levelCounts: number[] = [];
  for (let i = 0; i < n; i++) if (level[i] >= 0) levelCounts[level[i]] = (levelCounts[level[i]] ?? 0) + 1;
  for (let l = 0; l < levelCounts.length; l++) levelCounts[l] ??= 0;

  const load: EngineLoad[] = names.map((engine) => ({ engine, entries: 0, busy: 0, critical: 0 }));
  const scheduled = new Int32Array(names.length);
  for (let i = 0; i < n; i++) {
    if (engineOf[i] < 0) continue;
    const l = load[engineOf[i]];
    l.entries++;
    if (start[i] === start[i]) scheduled[engineOf[i]]++;
    if (onCritical[i]) l.critical += cost[i];
  }
  busyTimes(load, engineOf, start, cost, scheduled);
  load.sort((a, b) => compareEngines(a.engine, b.engine));

  const { cycles, cycleCount } = cyclesOf(g);
  return {
    n, cost, engineOf, engines: names, level, levelCounts, earliestStart: est, slack, start, criticalPath, criticalLength, onCritical,
    makespan, load, blocked: n - len, cycles, cycleCount,
  };
}

/**
 * List scheduling: an entry becomes ready when its last dep ends; ready entries take their engine
 * in order of ready time, then queue index, each starting when both it and the engine are free.
 * Ready times never decrease along the heap (a dependent is ready no earlier than its dep started),
 * so this is a consistent run of the queue with one entry at a time per engine.
 */
function listSchedule(g: CmdqGraph, revEnd: Int32Array, cost: Float64Array, engineOf: Int32Array, engines: number, order: Int32Array, level: Int32Array): { start: Float64Array; makespan: number } {
  const n = g.n;
  const ready = new Float64Array(n);
  const start = new Float64Array(n).fill(NaN);
  const pending = new Int32Array(n);
  const rev = g.rev, revStart = g.revStart;
  for (const i of order) for (let e = revStart[i]; e < revEnd[i]; e++) if (level[rev[e]] >= 0) pending[rev[e]]++;
  const free = new Float64Array(engines);
  const heap = new ReadyHeap(ready);
  for (const i of order) if (pending[i] === 0) heap.push(i);
  let makespan = 0;
  while (heap.size) {
    const i = heap.pop();
    const u = engineOf[i];
    const s = u >= 0 ? Math.max(ready[i], free[u]) : ready[i];
    const end = s + cost[i];
    start[i] = s;
    if (u >= 0) free[u] = end;
    if (end > makespan) makespan = end;
    for (let e = revStart[i]; e < revEnd[i]; e++) {
      const d = rev[e];
      if (level[d] < 0) continue;
      if (end > ready[d]) ready[d] = end;
      if (--pending[d] === 0) heap.push(d);
    }
  }
  return { start, makespan };
}

/**
 * Each engine's busy cycles: the union of its scheduled entries' intervals. The run gives an
 * engine one entry at a time, so today the union is their sum; the union is what stays true
 * (never over the makespan) whatever the schedule, and blocked entries (start NaN) are left out.
 */
function busyTimes(load: EngineLoad[], engineOf: Int32Array, start: Float64Array, cost: Float64Array, scheduled: Int32Array): void {
  // Intervals grouped by engine in one pass (counting sort by engine), then one union per engine.
  const from = new Int32Array(load.length + 1);
  for (let u = 0; u < load.length; u++) from[u + 1] = from[u] + scheduled[u];
  const at = from.slice(0, load.length);
  const s = new Float64Array(from[load.length]);
  const e = new Float64Array(from[load.length]);
  for (let i = 0; i < engineOf.length; i++) {
    const u = engineOf[i];
    if (u < 0 || start[i] !== start[i]) continue;
    s[at[u]] = start[i];
    e[at[u]++] = start[i] + cost[i];
  }
  for (let u = 0; u < load.length; u++) load[u].busy = lengthOf(unionOf(s.subarray(from[u], from[u + 1]), e.subarray(from[u], from[u + 1])));
}

function cyclesOf(g: CmdqGraph): { cycles: number[][]; cycleCount: number } {
  const cycles: number[][] = [];
  let cycleCount = 0;
  const add = (c: number[]): void => {
    if (cycleCount++ < MAX_CYCLES) cycles.push(c.length > MAX_CYCLE_MEMBERS ? c.slice(0, MAX_CYCLE_MEMBERS) : c);
  };
  for (let i = 0; i < g.n; i++) {
    for (let e = g.edgeStart[i]; e < g.edgeStart[i + 1]; e++) {
      if (g.targets[e] === i) {
        add([i]);
        break;
      }
    }
  }
  for (const comp of g.cycles()) {
    if (cycleCount >= MAX_CYCLES) cycleCount++;
    else add(g.cycleIn(comp));
  }
  return { cycles, cycleCount };
}
