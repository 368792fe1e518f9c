import { ChromeChecker } from '../../core/chrome/checks';
import type { FlowIndex } from '../../core/chrome/flows';
import type { Diagnostic } from '../../core/common/diagnostic';
import { finalizeDiagnostics } from '../../core/common/settings';
import type { FormatService } from '../formatService';
import { lineText } from '../lineText';
import { chromeDefinition, chromeReferences } from './navigation';

interface ChromeModel {
  found: Diagnostic[];
  dropped: number;
  flows: FlowIndex | undefined;
}

/**
 * Problems kept per document while they are produced; the maxProblems setting then picks from
 * them (a setting above this shows this many, and counts the rest).
 */
const KEEP = 10_000;

/** Chrome Trace Event JSON: the streaming checks over the document's lines, once per version. */
export const chromeService: FormatService<ChromeModel> = {
  formatId: 'chrome-trace',
  parse: (doc) => {
    const c = new ChromeChecker({ maxProblems: KEEP, flows: true });
    for (let i = 0; i < doc.lineCount; i++) c.add(lineText(doc, i), i);
    const found = c.finish();
    return { found, dropped: c.dropped().count, flows: c.flows };
  },
  diagnostics: (model, _doc, settings) => finalizeDiagnostics(model.found, settings, model.dropped),
  definition: (model, doc, pos) => chromeDefinition(model.flows, doc.uri, pos),
  references: (model, doc, pos) => chromeReferences(model.flows, doc.uri, pos),
};
