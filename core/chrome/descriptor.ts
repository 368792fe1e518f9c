import { JSON_LANGUAGES, jsonNamed, type FileHead } from '../fileHead';
import { CHROME_CODES } from './codes';
import { COMPRESSED_TIMELINE_EDITOR, type FormatDescriptor } from '../formatDescriptor';
import { ChromeChecker, chromeChunkChecker } from './checks';
import { OpsRecorder, opsBuffers } from './timelineOps';
import { looksLikeChromeTrace } from './detect';
import { ChromeTimelineBuilder } from './timeline';
import { chromeDiff } from './diff';

/**
 * A JSON file that is Chrome Trace Event JSON by its head: a top-level `traceEvents` array after
 * any other keys (PyTorch's `export_chrome_trace` pretty-prints `deviceProperties` first), or an
 * array whose first element has a `ph`; or, as the first line of a compact file shows it (its first
 * 4 KB), an object with "traceEvents" or an array of events.
 */
export function isChromeTraceHead(head: FileHead): boolean {
  const first = head.firstLine.slice(0, 4096);
  return /^\s*\{[^\n]*"traceEvents"\s*:/.test(first) || /^\s*\[\s*\{[^\n]*"ph"\s*:/.test(first) || looksLikeChromeTrace(head.text);
}

/** Longest line read of Chrome JSON (often one line of many MB): close to V8's longest string (2^29 − 24 UTF-16 units). */
export const MAX_CHROME_LINE_BYTES = 500 << 20;

export const chromeFormat: FormatDescriptor = {
  id: 'chrome-trace',
  displayName: 'Chrome Trace JSON',
  codes: CHROME_CODES,
  language: { aliases: ['Chrome Trace', 'chrome-trace'], extensions: ['.trace.json', '.pt.trace.json', '.chrome_trace'] },
  // Kineto/PyTorch `*.pt.trace.json(.gz)`, JAX `<host>.trace.json.gz` and `perfetto_trace.json.gz`,
  // Triton Proton `*.chrome_trace`; any other JSON by its head (HTA's `*.json.gz`, `trace.json`).
  names: ['*.trace.json', '*.trace.json.gz', 'perfetto_trace.json.gz', '*.chrome_trace', '*.chrome_trace.gz'],
  customEditors: [COMPRESSED_TIMELINE_EDITOR],
  // The Summary tab's GPU streams, steps, kernels and operators (core/chrome/summary.ts).
  summary: true,
  detect: (name, head) => jsonNamed(name) && isChromeTraceHead(head),
  contentDetection: { languages: JSON_LANGUAGES, setting: 'chrome.detectInJson' },
  createChecker: (opts) => new ChromeChecker(opts),
  // `check` reads the text in pieces, not lines: most events are read where they stand (no
  // JSON.parse), and a line of any length is read (#31).
  createChunkChecker: (settings) => chromeChunkChecker({ maxProblems: settings?.maxProblems }),
  timeline: () => new ChromeTimelineBuilder(),
  // Reading is more than half of a build: another thread reads, this one draws (timelineOps.ts).
  timelineReader: (post, part) => new ChromeTimelineBuilder({ record: new OpsRecorder((b) => post(b, opsBuffers(b))), part: part === 'object' || part === 'array' ? part : undefined }),
  parquetTables: 'timeline',
  exportsChrome: true,
  // The checker splits events as the text streams by (stream.ts): no document held, no 64 MB limit.
  streamedLineBytes: MAX_CHROME_LINE_BYTES,
  diff: chromeDiff,
};
