import { InferscopeDocument } from '../../core/inferscope/document';
import { definitionAt } from '../../core/inferscope/navigation';
import type { FormatService } from '../formatService';
import { offsetDefinition } from '../offsetModel';
import { inferscopeDiagnostics } from './diagnostics';
import { inferscopeHover } from './hover';
import { inferscopeReferences } from './references';
import { inferscopeSymbols } from './symbols';

const inferscopeDefinition = offsetDefinition(definitionAt);

/**
 * Each version is parsed once; an edit inside the events array re-parses only the events on the
 * lines it touched and shifts the rest (`core/inferscope/incremental.ts`); diagnostics are computed
 * once per version, on first use.
 */
export const inferscopeService: FormatService<InferscopeDocument> = {
  formatId: 'inferscope',
  parse: (doc) => InferscopeDocument.parse(doc.getText(), doc.uri),
  update: (model, doc, edits) => model.update(edits, doc.getText()),
  diagnostics: (model, _doc, settings) => inferscopeDiagnostics(model, settings),
  hover: (model, _doc, pos) => inferscopeHover(model, pos),
  definition: (model, doc, pos) => inferscopeDefinition(model, doc.uri, pos),
  references: (model, doc, pos, incl) => inferscopeReferences(model, doc.uri, pos, incl),
  documentSymbols: (model) => inferscopeSymbols(model),
};
