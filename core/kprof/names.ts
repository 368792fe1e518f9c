// Event names: from a sidecar `.names.json` (an array of strings) or `.names.txt` (one per line),
// or the CLI's `--names a,b,c`. Event indices have 10 bits, so at most 1024 names are kept.
import { MAX_QUOTED } from '../common/escape';
import { KprofFormatError } from './errors';

export const MAX_EVENTS = 1024;

export function namesFromJson(text: string): string[] {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new KprofFormatError(`The names file is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new KprofFormatError('The names file must hold a JSON array of strings');
  return (v as string[]).slice(0, MAX_EVENTS).map((s) => s.slice(0, MAX_QUOTED));
}

/** One name per line; stops reading after 1024 lines. A trailing empty line is not a name. */
export function namesFromLines(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length && out.length < MAX_EVENTS) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    out.push(text.slice(at, Math.min(end, at + MAX_QUOTED)).replace(/\r$/, ''));
    at = end + 1;
  }
  return out;
}

export function namesFromList(list: string): string[] {
  return list.split(',', MAX_EVENTS).map((s) => s.trim().slice(0, MAX_QUOTED));
}

/** The name of an event index: its name, or `event_<idx>` beyond the names. */
export function eventName(names: readonly string[], idx: number): string {
  return idx < names.length ? names[idx] : `event_${idx}`;
}
