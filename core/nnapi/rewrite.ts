import { isExecSubphase } from './naming';
import { elapsedLessSubtractedMs, preOrder, Scope } from './scope';

/**
 * The tree rewriting the reference does before validating (rules §4), in its order. Each step
 * first collects the scopes it applies to in pre-order, then changes the tree, exactly so: the
 * order decides which ancestors are already marked subtract when a later scope picks its target.
 */
export function rewriteTree(root: Scope): void {
  // Steps 1 and 2 (drop ignored scopes, then dummies) and the resolution of `PU` phases, in one
  // walk: dropping a set of scopes gives the same tree in any order, and each scope's parent is
  // final by the time the walk reaches it, so its phase can be resolved there.
  removeIgnoredAndResolve(root);
  moveMisplacedTime(root);
  addMissingApplicationScopes(root);
}

/** Steps 1–2: ignored (`LX`) scopes and dummies go; their children take their place. */
const drop = (s: Scope) => s.kind === 'dummy' || (s.kind === 'scope' && s.layer === 'LX');

/** Removes the dropped scopes and resolves `PU` phases top-down (a top-level `PU` gets no phase). */
function removeIgnoredAndResolve(root: Scope): void {
  // Rebuild each children list once (linear), lifting the children of dropped scopes.
  const stack: Scope[] = [root];
  while (stack.length) {
    const p = stack.pop()!;
    if (p.phaseTag === 'PU') p.effPhase = p.parent ? p.parent.effPhase : null;
    let changed = false;
    for (const c of p.children) if (drop(c)) changed = true;
    if (changed) {
      const out: Scope[] = [];
      const pending = [...p.children].reverse();
      while (pending.length) {
        const c = pending.pop()!;
        if (drop(c)) {
          for (let i = c.children.length - 1; i >= 0; i--) pending.push(c.children[i]);
          c.children.length = 0;
          c.parent = null;
        } else {
          c.parent = p;
          out.push(c);
        }
      }
      p.children = out;
    }
    for (const c of p.children) stack.push(c);
  }
}

/** Rule (c) of step 3 and the condition of step 4: a runtime/IPC scope under an `LA` scope of another phase. */
export function underWrongApplicationPhase(s: Scope): boolean {
  return !!s.parent && wrongApplicationPhase(s, s.parent);
}

/** `underWrongApplicationPhase` of `s` were `p` its parent. */
export function wrongApplicationPhase(s: Scope, p: Scope): boolean {
  if (p.layer !== 'LA') return false;
  if (s.layer !== 'LR' && s.layer !== 'LI') return false;
  const ph = s.phase();
  const pph = p.phase();
  return pph !== ph && pph !== 'PO' && ph !== 'PE' && !isExecSubphase(ph);
}

/** Step 3: copies misplaced time to where it belongs and marks the original subtract. */
function moveMisplacedTime(root: Scope): void {
  const misplaced: Scope[] = [];
  preOrder(root, (s) => {
    if (s.isRoot()) return;
    if (s.subtract) misplaced.push(s);
    else if (s.phase() === 'PI' && s.parent!.phase() !== 'PI') misplaced.push(s);
    else if (underWrongApplicationPhase(s)) misplaced.push(s);
  });
  for (const s of misplaced) {
    let target = s.parent!;
    if (s.subtract) {
      // (a) up to the scope of the same layer that owns the time (not added detail), or the root.
      while ((target.layer !== s.layer || target.isAddedDetail()) && !target.isRoot()) target = target.parent!;
    } else if (s.phase() === 'PI') {
      // (b) one-time initialization belongs at the top.
      while (!target.isRoot()) target = target.parent!;
    } else {
      // (c) the application phase is wrong: one level up.
      target = target.parent!;
    }
    if (!target.isRoot()) target = target.parent!;
    const copy = new Scope('copy', s.start, s.layer, s.phase(), s.appPhase, false, s.line, s.mark, s.fn, s.origin ?? s);
    copy.end = s.end;
    copy.endLine = s.endLine;
    copy.markCol = s.markCol;
    target.add(copy);
    s.subtract = true;
  }
}

/** Step 4: inserts an `LA` scope of the runtime/IPC scope's own phase where the application did not trace it. */
function addMissingApplicationScopes(root: Scope): void {
  const found: Scope[] = [];
  preOrder(root, (s) => {
    if (s.isRoot() || s.isAddedDetail() || s.subtract) return;
    if (underWrongApplicationPhase(s)) found.push(s);
  });
  for (const s of found) {
    const p = s.parent!;
    const la = new Scope('intermediate', s.start, 'LA', s.phase(), s.appPhase, false, s.line, s.mark, s.fn, s.origin ?? s);
    la.end = s.start + elapsedLessSubtractedMs(s) / 1000;
    la.endLine = s.endLine;
    la.markCol = s.markCol;
    la.parent = p;
    p.children[p.children.indexOf(s)] = la;
    s.parent = la;
    la.add(s);
  }
}
