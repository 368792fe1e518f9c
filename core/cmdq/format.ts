import type { FormatDefinition, LineChecker } from '../format';
import { CmdqDocument } from './document';
import { looksLikeCmdqStart } from './detect';

/**
 * `npu-trace check` streams lines; a CMDQ is one JSON value, so the checker keeps the lines and
 * validates at finish (a CMDQ is tens of MB at most, far below the CLI's whole-string limit).
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
};
