import { checkResult } from '../common/settings';
import { CMDQ_CODES } from './codes';
import type { FormatDescriptor, LineChecker } from '../formatDescriptor';
import { CmdqDocument } from './document';
import { hasTopLevelCmdqArray, looksLikeCmdqStart } from './detect';
import { JSON_LANGUAGES, jsonNamed } from '../fileHead';

/**
 * A CMDQ is one JSON value: `npu-trace check` reads a file of one whole (`checkDocument`); the line
 * checker, which keeps the lines and validates at finish, serves compressed input and the bound on
 * a document's size.
 */
export const cmdqFormat: FormatDescriptor = {
  id: 'cmdq',
  displayName: 'CMDQ',
  codes: CMDQ_CODES,
  language: { aliases: ['CMDQ', 'cmdq'], extensions: ['.cmdq.json', '.cmdq.jsonc'] },
  names: ['*.cmdq.json', '*.cmdq.jsonc'],
  // Any other JSON whose top-level object has a `cmdq` array (such files have arbitrary names).
  detect: (name, head) => jsonNamed(name) && (looksLikeCmdqStart(head.firstLine) || hasTopLevelCmdqArray(head.text)),
  contentDetection: { languages: JSON_LANGUAGES, setting: 'cmdq.detectInJson' },
  createChecker(): LineChecker {
    const lines: string[] = [];
    return {
      add: (line) => {
        lines.push(line);
      },
      finish: () => CmdqDocument.parse(lines.join('\n')).allDiagnostics(),
      // The document caps while it builds and counts errors past the cap; the reader's problems
      // (a cut-off .gz), rare, join the whole list instead.
      finishCapped: (settings, extra) => {
        const doc = CmdqDocument.parse(lines.join('\n'));
        return extra.length ? checkResult(doc.allDiagnostics().concat(extra), settings) : doc.capped(settings);
      },
    };
  },
  checkDocument: (text, settings) => CmdqDocument.parse(text).capped(settings),
  // A queue is what a run will do, not what it did: compare the NPU traces of the two runs instead.
  diff: { kinds: [], unsupported: 'a command queue holds no times (it is the input of a run); compare the NPU traces the two runs wrote' },
};
