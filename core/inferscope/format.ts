import type { FormatDefinition, LineChecker } from '../format';
import { InferscopeDocument } from './document';
import { looksLikeInferscopeStart } from './detect';

/** File names that are InferScope files whatever they hold. */
export const INFERSCOPE_NAME = /\.(inferscope|analysis)\.json$/i;

/**
 * An InferScope trace, analysis result or report is one JSON value: read whole, like a CMDQ.
 * Any `.json` is one too when its first line already shows a marker key (a compact file).
 */
export const inferscopeFormat: FormatDefinition = {
  id: 'inferscope',
  matches: (name, first) => INFERSCOPE_NAME.test(name) || (/\.json$/i.test(name) && looksLikeInferscopeStart(first)),
  createChecker(): LineChecker {
    const lines: string[] = [];
    return {
      add: (line) => {
        lines.push(line);
      },
      finish: () => InferscopeDocument.parse(lines.join('\n')).allDiagnostics(),
      finishCapped: (settings) => InferscopeDocument.parse(lines.join('\n')).capped(settings),
    };
  },
  checkDocument: (text, settings) => InferscopeDocument.parse(text).capped(settings),
  // A 200k-event trace as Python pretty-prints it is ~115 MB; V8 holds a string of up to ~512 MB.
  maxDocumentBytes: 256 << 20,
};
