import type { Diagnostic } from '../common/diagnostic';
import { isExecSubphase } from './naming';
import { rewriteTree, wrongApplicationPhase } from './rewrite';
import { preOrder, Scope } from './scope';
import { computeTimes, isCounted, StatsAccumulator } from './threadTimes';
import { validateScope, validateTree } from './validate';

/**
 * The summary's way through a thread (CLI `check`, `nnapi-stats`: numbers and problems, no
 * editor): each top-level scope is rewritten, validated and timed as soon as it closes, its numbers
 * filed, and its scopes dropped, so memory follows the open scopes, not every scope of the trace
 * (10M rows took 2.6 GB kept whole; issue #29, 8).
 *
 * Every step of the analysis stays inside one top-level scope or goes up to the thread's root
 * (rules §4: a copy of misplaced time is put at most at the top), so a tree settled a top-level
 * scope at a time gives the same trees, problems and numbers as the whole tree. The copies put at
 * the top are filed last, as the whole tree has them after the other top-level scopes: sums are
 * added in the same order. One thing is not known when a scope closes: whether its process is a
 * driver (a `HIDL::IDevice…::server` mark may come later), which turns `LC` into `LD` and back
 * (§3). A tree with such a layer is settled for both answers, and the end keeps the right one.
 */
export class Settled {
  readonly stats = new StatsAccumulator();
  readonly diagnostics: Diagnostic[] = [];
  violations = 0;
  /** What each copy put at the top adds: application phase, layer, phase, ms (in the order made). */
  private readonly topCopies: [string, string, string | null, number][] = [];

  /** Rewrites, validates and times the tree of one top-level scope, and files it into each of `into`. */
  static settle(top: Scope, pid: string, into: readonly Settled[]): void {
    const root = new Scope('root', Number.NaN, null, null, 'PO', false, -1, '', '');
    root.add(top);
    rewriteTree(root);
    const problems = validateTree(root, pid);
    computeTimes(root);
    // The rewriting appends its copies to the root after the scopes already there (rewrite.ts).
    const tops: Scope[] = [];
    const copies: Scope[] = [];
    for (const c of root.children) (c.kind === 'copy' ? copies : tops).push(c);
    for (const s of into) {
      s.violations += problems.length;
      for (const d of problems) s.diagnostics.push(d);
      s.stats.walk(tops);
      // A copy at the top is a leaf, never added detail nor subtract: counted as `walk` counts it.
      for (const c of copies) s.topCopies.push([c.appPhase, c.layer ?? '', c.phase(), c.time]);
    }
  }

  /** The thread's numbers: the settled trees', then the copies put at the top. */
  finish(): Map<string, number> {
    for (const [ap, layer, phase, ms] of this.topCopies) {
      this.stats.add(ap, layer, phase, ms);
      if (isExecSubphase(phase)) this.stats.add(ap, layer, 'PE', ms);
    }
    this.topCopies.length = 0;
    return this.stats.result();
  }
}

/**
 * Whether a scope that just closed inside an open one is final: no step of the rewriting (§4) will
 * touch it. Its children are all settled already (a child that is not leaves the parent unsettled
 * too); it is not dropped (a dummy, `LX`), not subtract, not one-time initialization under
 * another phase, not a runtime/IPC scope under an `LA` scope of another phase (it would be copied,
 * or get a scope inserted above it), and neither it nor its parent has a layer the driver mapping
 * changes. Then its time is its duration, it takes nothing from its parent, and its parent as
 * rewritten is `parent`, the nearest enclosing scope that is not dropped.
 */
export function settlesAlone(s: Scope, parent: Scope): boolean {
  return s.kind === 'scope' && s.children.length === 0 && s.layer !== 'LX' && !s.subtract
    && !(s.phase() === 'PI' && parent.phase() !== 'PI') && !wrongApplicationPhase(s, parent)
    && !mapped(s.layer) && !mapped(parent.layer);
}

/**
 * Settles a scope that `settlesAlone` under `parent` (it was detached from the tree): validated,
 * timed and counted as the whole tree would (`openPe`: the open `PE` scopes above it, by layer),
 * into each of `into`. Its numbers are added before its ancestors' rather than after: the same
 * sums, which may differ from the whole tree's in the last bit of a double.
 */
export function settleAlone(s: Scope, parent: Scope, pid: string, openPe: ReadonlyMap<string, number>, into: readonly Settled[]): void {
  s.parent = parent;
  s.time = s.elapsedMs();
  s.sub = 0;
  const problems: Diagnostic[] = [];
  validateScope(s, pid, SEEN, problems);
  SEEN.clear();
  const counted = isCounted(s);
  const layer = s.layer ?? '';
  const phase = s.phase();
  const pe = counted && isExecSubphase(phase) && !openPe.get(layer);
  for (const x of into) {
    x.violations += problems.length;
    for (const d of problems) x.diagnostics.push(d);
    if (counted) x.stats.add(s.appPhase, layer, phase, s.time);
    if (pe) x.stats.add(s.appPhase, layer, 'PE', s.time);
  }
}

/** `validateScope`'s rows reported, for one scope alone (it is the only one with its row). */
const SEEN = new Set<string>();

const mapped = (layer: string | null) => layer !== null && (layer.includes('LC') || layer.includes('LD'));

/** Whether the tree holds a layer that the driver mapping changes (`LC`, `LD`, §3). */
export function dependsOnDriver(top: Scope): boolean {
  let found = false;
  preOrder(top, (s) => {
    if (s.kind === 'scope' && mapped(s.layer)) found = true;
  });
  return found;
}

/** A copy of a tree as built (before any rewriting), its layers as traced. */
export function cloneTree(top: Scope): Scope {
  const copyOf = (s: Scope): Scope => {
    const c = new Scope(s.kind, s.start, s.layer, s.phaseTag, s.appPhase, s.subtract, s.line, s.mark, s.fn, s.origin);
    c.end = s.end;
    c.endLine = s.endLine;
    c.markCol = s.markCol;
    c.functionEndLine = s.functionEndLine;
    c.thread = s.thread;
    return c;
  };
  const out = copyOf(top);
  const stack: [Scope, Scope][] = [[top, out]];
  while (stack.length) {
    const [from, to] = stack.pop()!;
    for (const k of from.children) {
      const c = to.add(copyOf(k));
      stack.push([k, c]);
    }
  }
  return out;
}
