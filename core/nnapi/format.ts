import type { FormatDefinition, LineChecker } from '../format';
import { analyze } from './analysis';
import { Collector } from './collect';
import { ChunkRowReader, looksLikeHtml, parseRowLine } from './row';

/** Systrace/atrace/ftrace text, and systrace HTML exports (see README for how HTML is recognised). */
export function isSystraceFile(name: string, firstLine: string): boolean {
  return /\.(systrace|atrace|ftrace)$/i.test(name) || /^# tracer: /.test(firstLine) || /\.(systrace|atrace|nnapi)\.html?$/i.test(name)
    || (/\.html?$/i.test(name) && looksLikeHtml(firstLine));
}

/** Streams a trace through the first pass; the trees are built and checked at the end. */
export function createNnapiChecker(): LineChecker {
  let c: Collector | undefined;
  const reader = new ChunkRowReader();
  return {
    add(line, n) {
      c ??= new Collector(n === 0 && looksLikeHtml(line));
      c.add(parseRowLine(line), n);
    },
    addIn(text, s, e, n, chunk) {
      c ??= new Collector(n === 0 && looksLikeHtml(text.slice(s, e)));
      c.add(reader.read(text, s, e, chunk), n);
    },
    finish: () => analyze(c ?? new Collector(false)).diagnostics,
  };
}

export const nnapiFormat: FormatDefinition = {
  id: 'nnapi-systrace',
  matches: isSystraceFile,
  createChecker: createNnapiChecker,
};
