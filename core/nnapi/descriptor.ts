import type { FormatDescriptor } from '../formatDescriptor';
import { createNnapiChecker } from './checker';
import { NNAPI_CODES } from './codes';
import { looksLikeHtml } from './row';
import { nnapiDiff } from './diff';
import { NnapiTimelineBuilder } from './timeline';

/** A systrace by its head: atrace's `# tracer: ` first line, or an HTML export's (see README for how HTML is recognised). */
export function isSystraceHead(name: string, firstLine: string): boolean {
  return /^# tracer: /.test(firstLine) || (/\.html?$/i.test(name) && looksLikeHtml(firstLine));
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
  detect: (name, head) => isSystraceHead(name, head.firstLine),
  timeline: () => new NnapiTimelineBuilder(),
  parquetTables: 'nnapi',
  exportsChrome: true,
  // A warning: in an HTML export the line is as likely a script as a trace row.
  lineTooLong: { code: 'nnapi.line-too-long', severity: 'warning' },
  createChecker: createNnapiChecker,
  diff: nnapiDiff,
};
