import type { Diagnostic } from '../common/diagnostic';
import { range } from '../common/diagnostic';
import { tagRange } from './mark';
import { describe, isExecSubphase, isSubphase, LAYER_ORDER, quoted as quote, SUBPHASES } from './naming';
import { preOrder, type Scope } from './scope';

/** Whether the phase rule of §5 allows `s` inside its (non-root) parent. */
export function phaseAllowed(s: Scope): boolean {
  const p = s.parent!;
  const ph = s.phase();
  const pph = p.phase();
  return pph === null || ph === pph || s.phaseTag === 'PU' || ph === 'PI' || isSubphase(ph, pph)
    || (isExecSubphase(ph) && (SUBPHASES[pph]?.includes('PE') ?? false)) || s.subtract;
}

/** Whether the layer rule of §5 allows `s` inside its (non-root) parent. */
export function layerAllowed(s: Scope): boolean {
  const pl = s.parent!.layer;
  return pl === null || s.layer === 'LU' || s.layer === pl || (LAYER_ORDER[pl]?.includes(s.layer ?? '') ?? false) || s.subtract;
}

export function scopeLabel(s: Scope): string {
  const name = s.fn || s.mark;
  const what = s.kind === 'copy' ? ' (the copy the rewriting made of it)' : s.kind === 'intermediate' ? ' (the LA scope the rewriting inserted above it)' : '';
  return `'${quote(name)}'${what}`;
}

export function tagOf(s: Scope): string {
  return quote(`${s.layer}_${s.phase() ?? '-'}`);
}

/**
 * Nesting rules of §5 over a rewritten tree. Unlike the reference, which stops at the first
 * violation, every scope breaking a rule gets a diagnostic at its opening mark, with the parent's
 * opening line as related information.
 */
export function validateTree(root: Scope, pid: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  preOrder(root, (s) => validateScope(s, pid, seen, out));
  return out;
}

/**
 * The rules of §5 for one scope of a rewritten tree, against its parent. `seen`: the rows already
 * reported in this tree (a copy or an inserted scope has its origin's row).
 */
export function validateScope(s: Scope, pid: string, seen: Set<string>, out: Diagnostic[]): void {
  if (s.isRoot() || !s.parent) return;
  if (s.phase() === null && !s.subtract && !s.isAddedDetail()) {
    // A PU scope with no phased ancestor: the reference crashes when it files its time.
    const [a, b] = tagRange(s.mark);
    out.push({ range: range(s.line, s.markCol + a, s.markCol + b), severity: 'error', code: 'nnapi.phase-nesting',
      message: `${scopeLabel(s)} on thread ${pid} has phase PU (unspecified: takes its caller's), but no enclosing scope has a phase, so its time belongs to no phase (the reference parser crashes here). Tag it with its phase, or trace its caller.` });
    return;
  }
  if (s.parent.isRoot()) return;
  const phaseOk = phaseAllowed(s);
  const layerOk = layerAllowed(s);
  if (phaseOk && layerOk) return;
  // Messages are built only for violations: this walk visits every scope of the trace.
  const p = s.parent;
  const [a, b] = tagRange(s.mark);
  const at = range(s.line, s.markCol + a, s.markCol + b);
  const [pa, pb] = tagRange(p.mark);
  const related = [{ range: range(p.line, p.markCol + pa, p.markCol + pb), message: `parent: ${scopeLabel(p)} ${tagOf(p)}` }];
  const head = `${scopeLabel(s)} on thread ${pid} (layer ${describe(s.layer)}, phase ${describe(s.phase())}) is nested in ${scopeLabel(p)} (layer ${describe(p.layer)}, phase ${describe(p.phase())}, line ${p.line + 1})`;
  if (!phaseOk && !seen.has(`${s.line}:p`)) {
    seen.add(`${s.line}:p`);
    const allowed = [p.phase(), 'PU', 'PI', ...(SUBPHASES[p.phase() ?? ''] ?? [])];
    out.push({ range: at, severity: 'error', code: 'nnapi.phase-nesting', related,
      message: `${head}: phase rule broken — inside ${describe(p.phase())} only ${[...new Set(allowed)].join(', ')} may nest. `
        + `If the function switches phase here, open the new phase with [SW] (NNTRACE_*_SWITCH); if this time belongs elsewhere, mark the scope [SUB] (NNTRACE_FULL_SUBTRACT).` });
  }
  if (!layerOk && !seen.has(`${s.line}:l`)) {
    seen.add(`${s.line}:l`);
    const callees = LAYER_ORDER[p.layer ?? ''] ?? [];
    out.push({ range: at, severity: 'error', code: 'nnapi.layer-nesting', related,
      message: `${head}: layer rule broken — a ${describe(p.layer)} scope may contain only ${[p.layer, 'LU', ...callees].join(', ')}. `
        + `If this time belongs to ${describe(s.layer)} rather than ${describe(p.layer)}, mark the scope [SUB] (NNTRACE_FULL_SUBTRACT) so it is subtracted from its ancestors.` });
  }
}
