/**
 * The comparison's result as it crosses from the compare worker to a page (the Diff view, the
 * Summary's section against a pinned baseline): validators of its groups and runs, in a file of
 * their own so the timeline's and the comparison's messages both import them without a circle.
 */
import type { DiffResult, GroupDiff, SampleStats } from '../core/diff/types';

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
/** A group key is at most 200 characters (core/diff/groups.ts), a kind a short word: with room to spare. */
const isName = (x: unknown): x is string => isStr(x) && x.length <= 1000;
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const numOrNull = (x: unknown) => x === null || isNum(x);

/** Groups one comparison may carry: 10 000 per kind (core/diff/groups.ts) for a handful of kinds. */
export const MAX_DIFF_GROUPS_SHOWN = 100_000;

const validStats = (x: unknown): x is SampleStats => isObj(x) && Number.isInteger(x.count) && isNum(x.total) && numOrNull(x.mean) && numOrNull(x.p50) && numOrNull(x.p95);

export function validGroup(x: unknown): x is GroupDiff {
  if (!isObj(x) || !isName(x.kind) || !isName(x.key) || !validStats(x.a) || !validStats(x.b)) return false;
  const d = x.delta, r = x.rel;
  return isObj(d) && isNum(d.total) && numOrNull(d.mean) && isObj(r) && numOrNull(r.total) && numOrNull(r.mean)
    && numOrNull(x.p_value) && typeof x.significant === 'boolean' && typeof x.reported === 'boolean' && (x.line === null || Number.isInteger(x.line));
}

export const validRun = (x: unknown): x is DiffResult['a'] => isObj(x) && isStr(x.file) && isStr(x.format) && isStr(x.unit) && numOrNull(x.span);

/** A comparison the Diff view can draw without further checks (the `--json` contract's shape). */
export function validDiffResult(x: unknown): x is DiffResult {
  if (!isObj(x) || x.version !== 1 || !validRun(x.a) || !validRun(x.b) || !isObj(x.test) || !isStr(x.test.name) || !isObj(x.run)) return false;
  const lists = [x.groups, x.regressions, x.improvements];
  if (!lists.every((l) => Array.isArray(l) && l.length <= MAX_DIFF_GROUPS_SHOWN && l.every(validGroup))) return false;
  return Array.isArray(x.metrics) && x.metrics.length <= 10_000 && x.metrics.every((m: unknown) => isObj(m) && isName(m.key) && isStr(m.unit) && numOrNull(m.a) && numOrNull(m.b) && numOrNull(m.delta) && numOrNull(m.rel));
}
