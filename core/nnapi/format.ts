import { checkResult } from '../common/settings';
import { NNAPI_CODES } from './codes';
import type { FormatDefinition, LineChecker } from '../format';
import { analyze } from './analysis';
import { SystraceStream } from './collect';
import { looksLikeHtml } from './row';

/** Systrace/atrace/ftrace text, and systrace HTML exports (see README for how HTML is recognised). */
export function isSystraceFile(name: string, firstLine: string): boolean {
  return /\.(systrace|atrace|ftrace)$/i.test(name) || /^# tracer: /.test(firstLine) || /\.(systrace|atrace|nnapi)\.html?$/i.test(name)
    || (/\.html?$/i.test(name) && looksLikeHtml(firstLine));
}

/** Streams a trace through the first pass; the trees are built and checked at the end. */
export function createNnapiChecker(): LineChecker {
  const stream = new SystraceStream();
  const finish = () => analyze(stream.collector).diagnostics;
  return {
    add: (line, n) => stream.line(line, n),
    addIn: (text, s, e, n, chunk) => stream.lineIn(text, s, e, n, chunk),
    finish,
    finishCapped: (settings, extra) => checkResult(finish().concat(extra), settings),
  };
}

export const nnapiFormat: FormatDefinition = {
  id: 'nnapi-systrace',
  displayName: 'NNAPI systrace',
  codes: NNAPI_CODES,
  matches: isSystraceFile,
  // A warning: in an HTML export the line is as likely a script as a trace row.
  lineTooLong: { code: 'nnapi.line-too-long', severity: 'warning' },
  createChecker: createNnapiChecker,
};
