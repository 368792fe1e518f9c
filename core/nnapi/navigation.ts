import type { Analysis } from './analysis';
import { isCounted } from './threadTimes';
import type { Scope } from './scope';

/** The real scope a row opens, or else the one it closes (`E`, or the scope a `[SW]` row ends). */
export function scopeAtLine(a: Analysis, line: number): { scope: Scope; role: 'begin' | 'end' } | undefined {
  const opened = a.opened.get(line);
  if (opened) return { scope: opened, role: 'begin' };
  const closed = a.closed.get(line);
  return closed ? { scope: closed, role: 'end' } : undefined;
}

/** Rows that end a scope: its `E` (or the `[SW]` row that switched away from it) and, after a switch, the `E` that ends the function. */
export function closingLines(s: Scope): readonly number[] {
  return s.closers;
}

/** The scope's ancestors in the rewritten tree, outermost first, then the scope. */
export function callPath(s: Scope): Scope[] {
  const path: Scope[] = [];
  for (let p: Scope | null = s; p && !p.isRoot(); p = p.parent) path.push(p);
  return path.reverse();
}

export type TimeRole = 'counted' | 'added-detail' | 'subtracted';

export function timeRole(s: Scope): TimeRole {
  return isCounted(s) ? 'counted' : s.subtract ? 'subtracted' : 'added-detail';
}
