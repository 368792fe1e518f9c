import type { Diagnostic, Severity } from '../core/common/diagnostic';
import { lineTooDeep, MAX_JSON_DEPTH, nestsDeeperThan } from '../core/common/lines';
import type { LineChecker } from '../core/formatDescriptor';

/** A checker of JSON lines that skips, with one diagnostic, a line nesting deeper than MAX_JSON_DEPTH. */
export function depthBounded<C extends Pick<LineChecker, 'add' | 'addBytes' | 'addIn'>>(checker: C, kind: { code: string; severity: Severity }, found: { push(d: Diagnostic): unknown }): C {
  const deep = (n: number, at: (i: number) => number, s: number, e: number) => {
    if (!nestsDeeperThan(at, s, e, MAX_JSON_DEPTH)) return false;
    found.push(lineTooDeep(kind, n, MAX_JSON_DEPTH));
    return true;
  };
  const { addBytes, addIn } = checker;
  return {
    ...checker,
    // The length test first: no closure is made for the short lines that are nearly all of a file.
    add: (line, n) => (line.length > MAX_JSON_DEPTH && deep(n, (i) => line.charCodeAt(i), 0, line.length)) || checker.add(line, n),
    addBytes: addBytes && ((b, s, e, n, decode) => (e - s > MAX_JSON_DEPTH && deep(n, (i) => b[i], s, e)) || addBytes.call(checker, b, s, e, n, decode)),
    addIn: addIn && ((t, s, e, n, chunk) => (e - s > MAX_JSON_DEPTH && deep(n, (i) => t.charCodeAt(i), s, e)) || addIn.call(checker, t, s, e, n, chunk)),
  };
}
