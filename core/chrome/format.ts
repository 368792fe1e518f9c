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

export const chromeFormat: FormatDefinition = {
  id: 'chrome-trace',
  matches: isChromeTraceFile,
  createChecker: (opts) => new ChromeChecker(opts),
};
