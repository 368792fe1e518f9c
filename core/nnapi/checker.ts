import { checkResult } from '../common/settings';
import type { LineChecker } from '../formatDescriptor';
import { analyze } from './analysis';
import { SystraceStream } from './collect';

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
