/**
 * Checks the kernel-profiler panel's messages received by the page (the buffer's facts, its
 * statistics tables, an overlap): every field the pane reads is there with its type, numbers are
 * finite, and no list is longer than the core's caps, so the pane formats them without checks.
 */
import { MAX_QUOTED } from '../core/common/escape';
import { MAX_SUMMARY_ROWS, type KprofOverlap, type KprofRange, type KprofStatTable, type KprofSummary } from '../core/kprof/summary';

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isInt = (x: unknown): x is number => Number.isSafeInteger(x);
const isNumOrNull = (x: unknown) => x === null || isNum(x);
const has = (o: Record<string, unknown>, keys: readonly string[], test: (x: unknown) => boolean) => keys.every((k) => test(o[k]));
const isList = (x: unknown, each: (e: unknown) => boolean): boolean => Array.isArray(x) && x.length <= MAX_SUMMARY_ROWS && x.every(each);

const FACT_INTS = ['num_blocks', 'num_groups', 'write_stride', 'slots', 'records', 'regions', 'duration_ns', 'problems', 'launch', 'launches', 'full_lanes', 'lanes'] as const;
const STAT_NUMS = ['event', 'of', 'count', 'total_ns', 'mean_ns', 'min_ns', 'p50_ns', 'p95_ns', 'max_ns', 'std_ns'] as const;
const BLOCK_NUMS = ['block', 'busy_a_ns', 'busy_b_ns', 'overlap_ns'] as const;

export function validKprofSummary(x: unknown): x is KprofSummary {
  if (!isObj(x) || !isObj(x.facts) || !Array.isArray(x.tables) || x.tables.length > 3) return false;
  const f = x.facts;
  if (typeof f.layout !== 'string' || f.layout.length > 100 || !has(f, FACT_INTS, isInt) || !has(f, ['header_valid', 'stride_inferred', 'timer_wrapped'], (v) => typeof v === 'boolean')) return false;
  return x.tables.every(validTable);
}

function validTable(t: unknown): t is KprofStatTable {
  return isObj(t) && (t.by === 'event' || t.by === 'block' || t.by === 'group') && isInt(t.omitted)
    && isList(t.rows, (r) => isObj(r) && typeof r.name === 'string' && r.name.length <= MAX_QUOTED && has(r, STAT_NUMS, isNum));
}

export function validKprofRange(x: unknown): x is KprofRange {
  return isObj(x) && has(x, ['from_ns', 'to_ns'], isNum) && isInt(x.regions) && Array.isArray(x.tables) && x.tables.length <= 3 && x.tables.every(validTable);
}

export function validKprofOverlap(x: unknown): x is KprofOverlap {
  return isObj(x) && has(x, ['group_a', 'group_b', 'busy_a_ns', 'busy_b_ns', 'overlap_ns', 'blocks_omitted'], isNum) && has(x, ['of_a', 'of_b'], isNumOrNull)
    && isList(x.blocks, (b) => isObj(b) && has(b, BLOCK_NUMS, isNum));
}
