/**
 * What the timeline panel and its page say about the pinned baseline (docs/diff.md, "The Summary
 * against a pinned baseline"): which file is pinned for the panel's format, and the comparison of
 * the panel's file with it. Checked on receipt like every message of the page.
 */
import { MAX_BASELINE_ROWS, type BaselineDiff } from '../core/diff/baseline';
import { ATTRS, type AttrName } from '../core/timeline/model';
import { validGroup, validRun } from './diffResult';

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const numOrNull = (x: unknown) => x === null || isNum(x);
const count = (x: unknown) => Number.isInteger(x) && (x as number) >= 0;

/** A comparison the Summary can draw without further checks: at most MAX_BASELINE_ROWS rows. */
export function validBaselineDiff(x: unknown): x is BaselineDiff {
  if (!isObj(x) || !validRun(x.a) || !validRun(x.b) || !isObj(x.test) || typeof x.test.name !== 'string' || !isObj(x.run)) return false;
  if (!numOrNull(x.run.span_delta) || !numOrNull(x.run.span_rel) || !count(x.groups) || !count(x.regressions) || !count(x.improvements)) return false;
  if (!Array.isArray(x.rows) || x.rows.length > MAX_BASELINE_ROWS || !x.rows.every(validGroup)) return false;
  return Array.isArray(x.metrics) && x.metrics.length <= 1000 && x.metrics.every((m: unknown) => isObj(m) && typeof m.key === 'string' && m.key.length <= 1000 && typeof m.unit === 'string' && numOrNull(m.a) && numOrNull(m.b) && numOrNull(m.delta) && numOrNull(m.rel));
}

/** Kinds whose groups are a context attribute's values (their rows filter the timeline): a few, each an attribute. */
export function validAttrs(x: unknown): x is Record<string, AttrName> {
  return isObj(x) && Object.keys(x).length <= 64 && Object.values(x).every((a) => (ATTRS as readonly unknown[]).includes(a));
}
