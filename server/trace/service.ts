import { TraceDocument } from '../../core/trace/document';
import type { FormatService } from '../formatService';
import { lineText } from '../lineText';
import { traceCodeActions } from './codeActions';
import { traceDefinition } from './definition';
import { traceHover, warmHoverFormats } from './hover';
import { traceHighlights, traceReferences } from './references';
import { traceSymbols } from './symbols';

export const traceService: FormatService<TraceDocument> = {
  formatId: 'npu-trace',
  parse: (doc) => {
    warmHoverFormats();
    return TraceDocument.parse(doc.getText());
  },
  update: (model, doc, edits) => model.update(edits, (i) => lineText(doc, i)),
  diagnostics: (model, _doc, settings) => model.diagnostics(settings),
  prepare: (model, more) => model.prepare(more),
  hover: (model, _doc, pos) => traceHover(model, pos),
  definition: (model, doc, pos) => traceDefinition(model, doc.uri, pos),
  references: (model, doc, pos, incl) => traceReferences(model, doc.uri, pos, incl),
  documentHighlights: (model, _doc, pos) => traceHighlights(model, pos),
  documentSymbols: (model) => traceSymbols(model),
  codeActions: (_model, doc, params) => traceCodeActions(doc, params),
};
