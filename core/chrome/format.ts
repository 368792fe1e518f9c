import { CHROME_CODES } from './codes';
import type { FormatDefinition } from '../format';
import { ChromeChecker } from './checks';

/**
 * Chrome Trace Event JSON by name (`*.trace.json`, `*.pt.trace.json`, gzipped too) or, for another
 * `.json`/`.json.gz`/`.gz`, by a first line that opens the object form with "traceEvents" or the array
 * form with an event. Only the first 4 KB of the line are looked at (a one-line file can be 200 MB).
 */
export function isChromeTraceFile(fileName: string, firstLine: string): boolean {
  if (/\.trace\.json(\.gz)?$/i.test(fileName)) return true;
  // A gzip named plain `.gz` is looked into too (the CLI and the timeline see its first line gunzipped).
  if (!/\.(?:json(?:\.gz)?|gz)$/i.test(fileName) && !/^untitled/i.test(fileName)) return false;
  const head = firstLine.slice(0, 4096);
  return /^\s*\{[^\n]*"traceEvents"\s*:/.test(head) || /^\s*\[\s*\{[^\n]*"ph"\s*:/.test(head);
}

/** Longest line read of Chrome JSON (often one line of many MB): close to V8's longest string (2^29 − 24 UTF-16 units). */
export const MAX_CHROME_LINE_BYTES = 500 << 20;

export const chromeFormat: FormatDefinition = {
  id: 'chrome-trace',
  displayName: 'Chrome Trace JSON',
  codes: CHROME_CODES,
  matches: isChromeTraceFile,
  createChecker: (opts) => new ChromeChecker(opts),
  // The checker splits events as the text streams by (stream.ts): no document held, no 64 MB limit.
  streamedLineBytes: MAX_CHROME_LINE_BYTES,
};
