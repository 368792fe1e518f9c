import type { FormatDefinition, LineChecker } from '../format';
import { CmdqDocument } from './document';
import { looksLikeCmdqStart } from './detect';

/**
 * A CMDQ is one JSON value: `npu-trace check` reads a file of one whole (`checkDocument`); the line
 * checker, which keeps the lines and validates at finish, serves compressed input and the bound on
 * a document's size.
 */
export const cmdqFormat: FormatDefinition = {
  id: 'cmdq',
  matches: (name, first) => /\.cmdq\.jsonc?$/i.test(name) || (/\.jsonc?$/i.test(name) && looksLikeCmdqStart(first)),
  createChecker(): LineChecker {
    const lines: string[] = [];
    return {
      add: (line) => {
        lines.push(line);
      },
      finish: () => CmdqDocument.parse(lines.join('\n')).allDiagnostics(),
      // The exit status still counts errors past the cap: the document counts what it does not build.
      finishCapped: (settings) => CmdqDocument.parse(lines.join('\n')).capped(settings),
    };
  },
  checkDocument: (text, settings) => CmdqDocument.parse(text).capped(settings),
};
