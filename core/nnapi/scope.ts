import type { ScopeThread } from './scopeThread';
import { isSubphase } from './naming';

/** Shared by every leaf: most scopes have no children, and a million empty arrays cost GC time. */
const NO_CHILDREN: Scope[] = [];

export type ScopeKind = 'root' | 'scope' | 'dummy' | 'copy' | 'intermediate';

/**
 * One node of a thread's call tree (rules §3–§6). Real scopes come from a `B` row; the rewriting
 * of §4 adds copies and intermediate `LA` scopes, which point back at the scope they were made for.
 */
export class Scope {
  parent: Scope | null = null;
  children: Scope[] = NO_CHILDREN;
  /** Seconds; `end` stays undefined while the scope is open. */
  end: number | undefined;
  /** Row of the `E` (or `[SW]`) that closed it. */
  endLine = -1;
  /**
   * Phase with `PU` resolved to the parent's. Set by the rewriting once the ignored scopes and
   * dummies are gone; the later rewriting never changes it (a moved scope is never `PU`).
   */
  effPhase: string | null;
  /**
   * Cached by `computeTimes` (NaN until then). NaN, not 0: a field that starts as a small integer
   * and later holds a fraction makes V8 migrate every scope object on first touch (measured:
   * 0.7 s on a 1M-line trace).
   */
  time = Number.NaN;
  /** Column of the mark in its row (for diagnostics on the tag). */
  markCol = 0;
  /** The enclosing real scope as traced (dummies skipped), kept through the rewriting for the outline. */
  rawParent: Scope | null = null;
  /** After a `[SW]` switched away from it: the row of the E that ends its function (the dummy's E). */
  functionEndLine = -1;
  /** Filled by `computeTimes`: what this scope takes out of its parent's time (NaN until then, as `time`). */
  sub = Number.NaN;
  /** The thread (and run) a real scope belongs to. */
  thread: ScopeThread | undefined;

  constructor(
    readonly kind: ScopeKind,
    public start: number,
    /** Layer (mapped CPU/driver by process once the trace is read); null for root and dummies. */
    public layer: string | null,
    /** Phase as tagged (`PU` unresolved); null for root and dummies. */
    readonly phaseTag: string | null,
    readonly appPhase: string,
    public subtract: boolean,
    /** Row of the `B` mark (for copies and intermediates: of the scope they were made for). */
    readonly line: number,
    readonly mark: string,
    readonly fn: string,
    /** For a copy or intermediate: the real scope it was made for; for a dummy: the scope it stands for. */
    readonly origin?: Scope,
  ) {
    this.effPhase = phaseTag === 'PU' ? null : phaseTag;
  }

  isRoot(): boolean {
    return this.kind === 'root';
  }

  /** The phase, `PU` taking its parent's (valid once the rewriting has resolved it). */
  phase(): string | null {
    return this.effPhase;
  }

  add(child: Scope): Scope {
    child.parent = this;
    if (this.children === NO_CHILDREN) this.children = [];
    this.children.push(child);
    return child;
  }

  /** Rows that close it: its E (or the [SW] row that switched away from it), then its function's E. */
  get closers(): number[] {
    return [this.endLine, this.functionEndLine].filter((l) => l >= 0);
  }

  elapsedMs(): number {
    return ((this.end ?? this.start) - this.start) * 1000;
  }

  /** Added detail (§6): same layer as a non-root parent, not a designed subphase, not one-time init, not subtract. */
  isAddedDetail(): boolean {
    const p = this.parent;
    if (!p || p.isRoot() || this.isRoot()) return false;
    if (this.layer !== p.layer) return false;
    const ph = this.phase();
    const pph = p.phase();
    if (isSubphase(ph, pph)) return false;
    if (ph === 'PI' && pph !== 'PI') return false;
    return !this.subtract;
  }
}

/** Depth-first pre-order, without recursion. */
export function preOrder(root: Scope, visit: (s: Scope) => void): void {
  const stack: Scope[] = [root];
  while (stack.length) {
    const s = stack.pop()!;
    visit(s);
    for (let i = s.children.length - 1; i >= 0; i--) stack.push(s.children[i]);
  }
}

/** Subtracted time of `c` within its parent (§6), computed on the current tree without caching. */
export function subtractedMs(c: Scope): number {
  let total = 0;
  const stack = [c];
  while (stack.length) {
    const s = stack.pop()!;
    if (s.isAddedDetail()) for (const k of s.children) stack.push(k);
    else if (s.subtract) total += s.elapsedMs();
  }
  return total;
}

export function elapsedLessSubtractedMs(s: Scope): number {
  let t = s.elapsedMs();
  for (const c of s.children) t -= subtractedMs(c);
  return t;
}
