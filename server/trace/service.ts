import { TraceDocument } from '../../core/trace/document';
import type { FormatService } from '../format';
import { lineText } from '../lineText';

export const traceService: FormatService<TraceDocument> = {
  languageId: 'npu-trace',
  parse: (doc) => TraceDocument.parse(doc.getText()),
  update: (model, doc, edits) => model.update(edits, (i) => lineText(doc, i)),
  diagnostics: (model, _doc, settings) => model.diagnostics(settings),
};
