import { CmdqDocument } from '../../core/cmdq/document';
import { definitionAt } from '../../core/cmdq/navigation';
import type { FormatService } from '../formatService';
import { offsetDefinition } from '../offsetModel';
import { cmdqCodeActions } from './codeActions';
import { cmdqCodeLenses } from './codeLens';
import { cmdqCompletion } from './completion';
import { cmdqDiagnostics } from './diagnostics';
import { cmdqHover } from './hover';
import { cmdqHighlights, cmdqReferences } from './references';
import { cmdqSymbols } from './symbols';

const cmdqDefinition = offsetDefinition(definitionAt);

/**
 * What is incremental: each version is parsed once (the store calls `update` once per didChange
 * batch); an edit inside the cmdq array re-parses only the entries on the lines it touched and
 * shifts the rest (`core/cmdq/incremental.ts`); diagnostics and the dependency graph are computed
 * once per version, on first use; key/value ranges are scanned per entry only when a feature looks
 * at that entry.
 */
export const cmdqService: FormatService<CmdqDocument> = {
  formatId: 'cmdq',
  parse: (doc) => CmdqDocument.parse(doc.getText()),
  update: (model, doc, edits) => model.update(edits, doc.getText()),
  diagnostics: (model, _doc, settings) => cmdqDiagnostics(model, settings),
  hover: (model, _doc, pos) => cmdqHover(model, pos),
  definition: (model, doc, pos) => cmdqDefinition(model, doc.uri, pos),
  references: (model, doc, pos, incl) => cmdqReferences(model, doc.uri, pos, incl),
  documentHighlights: (model, _doc, pos) => cmdqHighlights(model, pos),
  documentSymbols: (model) => cmdqSymbols(model),
  completion: (model, _doc, pos) => cmdqCompletion(model, pos),
  codeActions: (model, doc, params) => cmdqCodeActions(model, doc.uri, params),
  codeLenses: (model) => cmdqCodeLenses(model),
};
