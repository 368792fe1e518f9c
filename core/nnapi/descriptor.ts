import type { FileHead } from '../fileHead';
import type { FormatDescriptor } from '../formatDescriptor';
import { createNnapiChecker } from './checker';
import { NNAPI_CODES } from './codes';
import { looksLikeHtml } from './row';
import { nnapiDiff } from './diff';
import { NnapiTimelineBuilder } from './timeline';

/**
 * What tells a systrace saved as HTML from any other page: catapult's `systrace.py` writes
 * `<title>Android System Trace</title>` on its sixth line (systrace/prefix.html) and the trace in
 * `<script class="trace-data">` blocks, whose text starts with atrace's `# tracer: ` line.
 */
const SYSTRACE_HTML = /<title>\s*Android System Trace\s*<\/title>|class=["']trace-data["']|^# tracer: /im;

/**
 * A systrace by its head: atrace's `# tracer: ` first line (`.systrace`, or `adb shell atrace >
 * trace.txt`), or an HTML page whose head holds a systrace (the names `*.systrace.html` … are taken
 * by name whatever they hold).
 */
export function isSystraceHead(name: string, head: FileHead): boolean {
  return /^# tracer: /.test(head.firstLine) || (/\.html?$/i.test(name) && looksLikeHtml(head.firstLine) && SYSTRACE_HTML.test(head.text));
}

export const nnapiFormat: FormatDescriptor = {
  id: 'nnapi-systrace',
  displayName: 'NNAPI systrace',
  codes: NNAPI_CODES,
  language: {
    aliases: ['NNAPI Systrace', 'nnapi-systrace'], extensions: ['.systrace', '.atrace', '.ftrace'],
    filenamePatterns: ['*.systrace.html', '*.atrace.html', '*.nnapi.html'], firstLine: '^# tracer: ',
  },
  names: ['*.systrace', '*.atrace', '*.ftrace', '*.systrace.html', '*.atrace.html', '*.nnapi.html', '*.systrace.htm', '*.atrace.htm', '*.nnapi.htm'],
  detect: isSystraceHead,
  // VS Code opens `trace.html` as HTML and `trace.txt` as plain text: switched when they hold a systrace.
  contentDetection: { languages: ['html', 'plaintext'], setting: 'nnapi.detectByContent' },
  timeline: (opts) => new NnapiTimelineBuilder(opts),
  parquetTables: 'nnapi',
  exportsChrome: true,
  // The Summary tab shows the builder's tables (`summaryTables.ts`).
  summary: true,
  // A warning: in an HTML export the line is as likely a script as a trace row.
  lineTooLong: { code: 'nnapi.line-too-long', severity: 'warning' },
  createChecker: createNnapiChecker,
  diff: nnapiDiff,
};
