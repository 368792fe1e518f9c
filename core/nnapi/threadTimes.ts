import { isExecSubphase } from './naming';
import type { Scope } from './scope';

/**
 * What the per-thread figures read of a thread (`ThreadState` in builder.ts is one): declared here,
 * so this file needs not import the builder, which imports it through settle.ts.
 */
export interface TimedThread {
  readonly root: Scope;
  readonly laPeCounts: ReadonlyMap<string, number>;
  readonly stats: ReadonlyMap<string, number>;
  begins(appPhase: string, fn: string): number[];
  ends(appPhase: string, fn: string): number[];
}

/**
 * Time of every scope of a rewritten tree (rules §6): its duration less what its children subtract.
 * Bottom-up once, so deep chains of added detail stay linear.
 */
export function computeTimes(root: Scope): void {
  const order: Scope[] = [];
  const stack = [root];
  while (stack.length) {
    const s = stack.pop()!;
    order.push(s);
    for (const c of s.children) stack.push(c);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const s = order[i];
    let childSub = 0;
    for (const c of s.children) childSub += c.sub;
    s.time = s.isRoot() ? 0 : s.elapsedMs() - childSub;
    s.sub = s.isAddedDetail() ? childSub : s.subtract ? s.elapsedMs() : 0;
  }
}

/** Whether a scope's time is counted in a bucket (§6): not added detail and not subtract. */
export function isCounted(s: Scope): boolean {
  return !s.isRoot() && !s.isAddedDetail() && !s.subtract;
}

/**
 * Adds each counted scope's time to `appPhase_layer_phase`; an execution subphase also to
 * `appPhase_layer_PE` unless a `PE` scope of the same layer encloses it. Fed top-level scopes in
 * the tree's order (all at once, or one by one as a summary settles them), it adds in the same
 * order either way, so the sums are the same to the last bit.
 */
export class StatsAccumulator {
  // Nested maps while walking (no key string per scope), flattened to `appPhase_layer_phase` at the end.
  private readonly nested = new Map<string, Map<string, Map<string | null, number>>>();

  add(ap: string, layer: string, phase: string | null, v: number): void {
    let byLayer = this.nested.get(ap);
    if (!byLayer) this.nested.set(ap, (byLayer = new Map()));
    let byPhase = byLayer.get(layer);
    if (!byPhase) byLayer.set(layer, (byPhase = new Map()));
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + v);
  }

  /** The counted scopes of the trees under `tops` (children of a root, with their times computed). */
  walk(tops: readonly Scope[]): void {
    const inPe = new Map<string, number>();
    // `null` above a PE scope on the stack marks where the walk leaves it (no pair per scope).
    const stack: (Scope | null)[] = [];
    for (let i = tops.length - 1; i >= 0; i--) stack.push(tops[i]);
    while (stack.length) {
      let s = stack.pop()!;
      let leaving = false;
      if (s === null) {
        s = stack.pop()!;
        leaving = true;
      }
      const layer = s.layer ?? '';
      const phase = s.phase();
      if (leaving) {
        inPe.set(layer, inPe.get(layer)! - 1);
        continue;
      }
      if (isCounted(s)) {
        this.add(s.appPhase, layer, phase, s.time);
        if (isExecSubphase(phase) && !inPe.get(layer)) this.add(s.appPhase, layer, 'PE', s.time);
      }
      if (phase === 'PE') {
        inPe.set(layer, (inPe.get(layer) ?? 0) + 1);
        stack.push(s, null);
      }
      for (let i = s.children.length - 1; i >= 0; i--) stack.push(s.children[i]);
    }
  }

  result(): Map<string, number> {
    const stats = new Map<string, number>();
    for (const [ap, byLayer] of this.nested) for (const [layer, byPhase] of byLayer) for (const [phase, v] of byPhase) stats.set(`${ap}_${layer}_${phase}`, v);
    return stats;
  }
}

/** `StatsAccumulator` over a thread's whole tree. */
export function threadStats(t: TimedThread): Map<string, number> {
  const acc = new StatsAccumulator();
  acc.walk(t.root.children);
  return acc.result();
}

const RUNTIME_SYNC = [
  'ANeuralNetworksExecution_create', 'ANeuralNetworksExecution_free', 'ANeuralNetworksEvent_create', 'ANeuralNetworksEvent_free',
  'ANeuralNetworksExecution_setInput', 'ANeuralNetworksExecution_setOutput',
  'ANeuralNetworksExecution_setInputFromMemory', 'ANeuralNetworksExecution_setOutputFromMemory',
];

/**
 * One thread's value for `layer_phase` in an application phase. Runtime execution is special
 * (§6): execution is asynchronous, so it is startCompute → Event_wait plus the synchronous calls.
 */
export function threadStat(t: TimedThread, tag: string, appPhase: string): number {
  if (tag === 'LR_PE') {
    const starts = t.begins(appPhase, 'ANeuralNetworksExecution_startCompute');
    const ends = t.ends(appPhase, 'ANeuralNetworksEvent_wait');
    let elapsed = 0;
    // The reference pairs them by index; a missing wait would crash it, we pair what exists.
    for (let i = 0; i < Math.min(starts.length, ends.length); i++) elapsed += ends[i] - starts[i];
    for (const fn of RUNTIME_SYNC) {
      const b = t.begins(appPhase, fn);
      const e = t.ends(appPhase, fn);
      for (let i = 0; i < b.length; i++) elapsed += e[i] - b[i];
    }
    return elapsed;
  }
  return t.stats.get(`${appPhase}_${tag}`) ?? 0;
}

/** Executions in an application phase on one thread: `ANeuralNetworksExecution_create` scopes, else `LA`/`PE` scopes. */
export function threadExecutionCount(t: TimedThread, appPhase: string): number {
  const n = t.begins(appPhase, 'ANeuralNetworksExecution_create').length;
  return n > 0 ? n : (t.laPeCounts.get(appPhase) ?? 0);
}
