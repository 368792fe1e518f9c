import type { FormatDefinition, LineChecker } from '../format';
import { checkResult, defaultDiagnosticSettings } from '../common/settings';
import { StreamedCheck } from './streamCheck';
import { InferscopeDocument } from './document';
import { looksLikeInferscopeStart } from './detect';

/** Characters read whole, as one string; past this a trace is checked streamed (`streamCheck.ts`). */
const MAX_WHOLE = 256 << 20;

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
    let lines: string[] = [];
    let chars = 0;
    let streamed: StreamedCheck | undefined;
    const whole = () => InferscopeDocument.parse(lines.join('\n'));
    return {
      add: (line) => {
        if (streamed) {
          streamed.feed(`${line}\n`);
          return;
        }
        lines.push(line);
        chars += line.length + 1;
        if (chars > MAX_WHOLE) {
          // Joined, the lines would pass what one V8 string holds: the rest is checked streamed.
          streamed = new StreamedCheck();
          for (const l of lines) streamed.feed(`${l}\n`);
          lines = [];
        }
      },
      finish: () => (streamed ? streamed.finish({ ...defaultDiagnosticSettings, maxProblems: Infinity }).diagnostics : whole().allDiagnostics()),
      finishCapped: (settings, extra) => {
        const r = streamed ? streamed.finish(settings) : whole().capped(settings);
        return extra.length ? checkResult([...extra, ...r.diagnostics], settings) : r;
      },
    };
  },
  checkDocument: (text, settings) => InferscopeDocument.parse(text).capped(settings),
  // A 200k-event trace as Python pretty-prints it is ~115 MB; V8 holds a string of up to ~512 MB.
  maxDocumentBytes: MAX_WHOLE,
  // Past that the file is read line by line and checked streamed; one line must still fit a string.
  streamedLineBytes: MAX_WHOLE,
  // The CLI reads a plain file past that in 1 MB pieces: a compact one-line file is no longer one line too many.
  createChunkChecker: () => new StreamedCheck(),
};
