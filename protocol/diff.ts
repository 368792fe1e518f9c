/**
 * Every message of the editor's comparison of two runs (docs/diff.md, "In the editor"), both
 * directions, for its two pages: the Diff view (a table of groups) and the Compare Timelines panel
 * (both runs' timelines, one above the other). Both sides validate what they receive: a page draws
 * names from files, and the host does not trust a page.
 */
import type { DiffResult, MarkerSpec, TimelineMatch } from '../core/diff/types';
import { ATTRS, type TimelineModel } from '../core/timeline/model';
import { validDiffResult } from './diffResult';
import { validModel } from './timeline';

/** Host → the Diff view. */
export type DiffHostMessage =
  /** Reading and comparing is under way. */
  | { type: 'progress'; message: string }
  /** The comparison failed or was cancelled; the message says why. */
  | { type: 'error'; message: string }
  /**
   * The comparison of the kinds `by` picks ('' every kind, as `npu-trace diff` without `--by`);
   * `kinds` are the format's, for the selector; `notes` what the readers skipped.
   */
  | { type: 'result'; kinds: string[]; by: string; result: DiffResult; notes: string[] };

/** The Diff view → host. */
export type DiffPageMessage =
  | { type: 'ready' }
  /** Show the comparison over this kind alone ('' every kind). */
  | { type: 'by'; kind: string }
  /** Open both runs' timelines with this group's items highlighted. */
  | { type: 'open'; kind: string; key: string }
  | { type: 'error'; message: string };

/** One run in the Compare Timelines panel. */
export interface CompareSide {
  fileName: string;
  model: TimelineModel;
}

/** Host → the Compare Timelines panel. */
export type CompareHostMessage =
  | { type: 'progress'; message: string }
  | { type: 'error'; message: string }
  /**
   * Both runs' models; `group` is the group whose items are highlighted in both, found by `match`
   * (the format's `diff.timeline` for its kind; null: the format does not say, nothing highlighted);
   * `markers` the format's `diff.markers`, what the runs can be aligned at besides their starts.
   */
  | { type: 'models'; a: CompareSide; b: CompareSide; group: { kind: string; key: string }; match: TimelineMatch | null; markers: MarkerSpec[] };

/** The Compare Timelines panel → host. */
export type ComparePageMessage = { type: 'ready' } | { type: 'error'; message: string };

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
/** A group key is at most 200 characters (core/diff/groups.ts), a kind a short word: with room to spare. */
const isName = (x: unknown): x is string => isStr(x) && x.length <= 1000;

export function parseDiffPageMessage(x: unknown): DiffPageMessage | undefined {
  if (!isObj(x)) return undefined;
  const m = x as DiffPageMessage;
  switch (m.type) {
    case 'ready': return { type: 'ready' };
    case 'by': return isName(m.kind) ? { type: 'by', kind: m.kind } : undefined;
    case 'open': return isName(m.kind) && isName(m.key) ? { type: 'open', kind: m.kind, key: m.key } : undefined;
    case 'error': return isStr(m.message) ? { type: 'error', message: m.message.slice(0, 2000) } : undefined;
    default: return unknownType(m);
  }
}

export function parseDiffHostMessage(x: unknown): DiffHostMessage | undefined {
  if (!isObj(x)) return undefined;
  const m = x as DiffHostMessage;
  switch (m.type) {
    case 'progress':
    case 'error': return isStr(m.message) ? m : undefined;
    case 'result':
      return Array.isArray(m.kinds) && m.kinds.every(isName) && isStr(m.by) && Array.isArray(m.notes) && m.notes.every(isStr) && validDiffResult(m.result) ? m : undefined;
    default: return unknownType(m);
  }
}

export function parseComparePageMessage(x: unknown): ComparePageMessage | undefined {
  if (!isObj(x)) return undefined;
  const m = x as ComparePageMessage;
  switch (m.type) {
    case 'ready': return { type: 'ready' };
    case 'error': return isStr(m.message) ? { type: 'error', message: m.message.slice(0, 2000) } : undefined;
    default: return unknownType(m);
  }
}

export function parseCompareHostMessage(x: unknown): CompareHostMessage | undefined {
  if (!isObj(x)) return undefined;
  const m = x as CompareHostMessage;
  switch (m.type) {
    case 'progress':
    case 'error': return isStr(m.message) ? m : undefined;
    case 'models':
      return validSide(m.a) && validSide(m.b) && isObj(m.group) && isName(m.group.kind) && isName(m.group.key) && (m.match === null || validMatch(m.match))
        && Array.isArray(m.markers) && m.markers.length <= 16 && m.markers.every(validMarkerSpec) ? m : undefined;
    default: return unknownType(m);
  }
}

function unknownType(_m: never): undefined {
  return undefined;
}

const validSide = (x: unknown): x is CompareSide => isObj(x) && isStr(x.fileName) && validModel(x.model);

function validMatch(x: unknown): x is TimelineMatch {
  if (!isObj(x)) return false;
  if (x.by === 'attr') return (ATTRS as readonly unknown[]).includes(x.attr);
  if (x.by === 'name') return x.kinds === undefined || (Array.isArray(x.kinds) && x.kinds.length <= 64 && x.kinds.every((k) => Number.isInteger(k)));
  return x.by === 'kind';
}

const isAttr = (x: unknown) => (ATTRS as readonly unknown[]).includes(x);

function validMarkerSpec(x: unknown): x is MarkerSpec {
  if (!isObj(x) || !isName(x.label) || !['attr', 'name', 'rank'].includes(x.key as string)) return false;
  if (x.key === 'attr' && !isAttr(x.attr)) return false;
  if (x.attr !== undefined && !isAttr(x.attr)) return false;
  if (x.prefix !== undefined && !isName(x.prefix)) return false;
  if (x.kinds !== undefined && !(Array.isArray(x.kinds) && x.kinds.length <= 64 && x.kinds.every((k) => Number.isInteger(k)))) return false;
  if (x.where !== undefined && !(Array.isArray(x.where) && x.where.length <= 8 && x.where.every((w) => isObj(w) && isAttr(w.attr) && isName(w.value) && (w.not === undefined || typeof w.not === 'boolean')))) return false;
  return (x.each === undefined || typeof x.each === 'boolean') && (x.group === undefined || isName(x.group)) && (x.groupAll === undefined || isName(x.groupAll));
}
