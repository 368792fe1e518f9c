import { ownString } from '../common/ownString';
import { fixUpMark, functionName, hidlTag, KNOWN_LAYERS, KNOWN_PHASES, quoted as quote } from './naming';
import { matchTag } from './tagMatch';

const TRAILING_TAG = /\[NN_[A-Z]+_[A-Z]+\]$/;

export interface MarkProblem {
  code: 'nnapi.unknown-tag' | 'nnapi.unparsed-mark';
  severity: 'error' | 'warning';
  message: string;
}

/** A `B` mark read as the reference reads it. */
export interface BeginMark {
  /** The mark after the historical fix-ups; the function name comes from it. */
  text: string;
  switchPhase: boolean;
  subtract: boolean;
  /** `NN_<layer>_<phase>` from the tag or from the HIDL mapping. */
  tag: string;
  fromHidl: boolean;
  /** Layer code as written, before the CPU/driver mapping by process. */
  layer: string;
  phase: string;
  fn: string;
  problem?: MarkProblem;
}

// Traces repeat the same marks (same process, same functions) a great many times, and a read mark
// is immutable: a bounded cache saves the regex and the allocations for most rows.
const cache = new Map<string, BeginMark>();
const CACHE_MAX = 50_000;

export function readBeginMark(mark: string): BeginMark {
  let bm = cache.get(mark);
  if (bm) return bm;
  // The cache and every scope keep the mark: a copy of its own, not a view into the file's chunk.
  const own = ownString(mark);
  bm = readBeginMarkUncached(own);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(own, bm);
  return bm;
}

/** `readBeginMark` without the cache (for tests that measure the reading itself). */
export function readBeginMarkUncached(mark: string): BeginMark {
  const text = fixUpMark(mark);
  const switchPhase = text.includes('[SW]');
  const subtract = text.includes('[SUB]');
  const fn = functionName(text);
  // The reference's tag regex (rules §3): the last `[..]` followed by at least one more character.
  const m = matchTag(text);
  let tag: string | undefined;
  let problem: MarkProblem | undefined;
  if (m) tag = text.slice(m.tagStart, m.tagEnd);
  else {
    tag = hidlTag(text);
    if (tag === undefined) {
      problem = { code: 'nnapi.unparsed-mark', severity: 'error',
        message: 'this HIDL mark has no [NN_..] tag and matches none of the automatic HIDL patterns (::client, ::server, ::passthrough, getCapabilities, getSupportedOperations); the reference parser aborts here. It is ignored (layer LX).' };
    } else if (TRAILING_TAG.test(text)) {
      problem = { code: 'nnapi.unparsed-mark', severity: 'warning',
        message: 'the tag ends the mark: the reference reads a tag only when a function name follows it, so this scope is ignored (layer LX). Add the function name after the tag.' };
    }
    return { text, switchPhase, subtract, tag: tag ?? 'NN_LX_PI', fromHidl: true, layer: tag ? tag.split('_')[1] : 'LX', phase: tag ? tag.split('_')[2] : 'PI', fn, problem };
  }
  const parts = tag.split('_');
  if (parts.length !== 3) {
    problem = { code: 'nnapi.unknown-tag', severity: 'error',
      message: `[${quote(tag)}] is not a tag of the form [NN_<layer>_<phase>]; the reference parser aborts on it. The scope is ignored (layer LX).` };
    return { text, switchPhase, subtract, tag, fromHidl: false, layer: 'LX', phase: 'PI', fn, problem };
  }
  const [, layer, phase] = parts;
  const bad: string[] = [];
  if (!KNOWN_LAYERS.has(layer)) bad.push(`layer ${quote(layer)} is not one of ${[...KNOWN_LAYERS].join(' ')}`);
  if (!KNOWN_PHASES.has(phase)) bad.push(`phase ${quote(phase)} is not one of ${[...KNOWN_PHASES].join(' ')}`);
  if (bad.length) {
    problem = { code: 'nnapi.unknown-tag', severity: 'error',
      message: `unknown code in [${quote(tag)}]: ${bad.join('; ')}. Its time lands in no table cell and it breaks the nesting rules wherever it is nested.` };
  }
  return { text, switchPhase, subtract, tag, fromHidl: false, layer, phase, fn, problem };
}

/** Columns `[start, end)` of the tag inside `mark` (brackets included), or of the whole text field. */
export function tagRange(mark: string): [number, number] {
  const m = matchTag(mark);
  if (m) return [m.tagStart - 1, m.tagEnd + 1];
  const second = mark.indexOf('|', mark.indexOf('|') + 1);
  return second >= 0 ? [second + 1, Math.max(second + 1, mark.length)] : [0, mark.length];
}
