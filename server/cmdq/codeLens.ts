import type { CodeLens } from 'vscode-languageserver';
import type { CmdqDocument } from '../../core/cmdq/document';
import { entryLenses } from '../../core/cmdq/symbols';
import { toRange } from '../offsetModel';

/** "N dependents · depth D" above each entry; display-only, so no command runs on click. */
export function cmdqCodeLenses(model: CmdqDocument): CodeLens[] {
  return entryLenses(model).map((l) => ({ range: toRange(model, l.start, l.start + 1), command: { title: l.title, command: '' } }));
}
