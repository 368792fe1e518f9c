import { NnapiDocument } from '../../core/nnapi/document';
import type { FormatService } from '../formatService';
import { lineText } from '../lineText';
import { nnapiCodeActions } from './codeActions';
import { nnapiHover } from './hover';
import { nnapiDefinition, nnapiReferences } from './navigation';
import { nnapiFolding, nnapiSymbols } from './outline';

export const nnapiService: FormatService<NnapiDocument> = {
  formatId: 'nnapi-systrace',
  parse: (doc) => NnapiDocument.fromLines(doc.lineCount, (i) => lineText(doc, i)),
  update: (model, doc, edits) => model.update(edits, (i) => lineText(doc, i)),
  diagnostics: (model, _doc, settings) => model.diagnostics(settings),
  hover: (model, _doc, pos) => nnapiHover(model, pos),
  definition: (model, doc, pos) => nnapiDefinition(model, doc, pos),
  references: (model, doc, pos, incl) => nnapiReferences(model, doc, pos, incl),
  documentSymbols: (model) => nnapiSymbols(model),
  foldingRanges: (model) => nnapiFolding(model),
  codeActions: (model, doc, params) => nnapiCodeActions(model, doc, params),
};
