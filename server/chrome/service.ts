import { ChromeChecker } from '../../core/chrome/checks';
import type { Diagnostic } from '../../core/common/diagnostic';
import { finalizeDiagnostics } from '../../core/common/settings';
import type { FormatService } from '../format';
import { lineText } from '../lineText';

interface ChromeModel {
  found: Diagnostic[];
  dropped: number;
}

/**
 * Problems kept per document while they are produced; the maxProblems setting then picks from
 * them (a setting above this shows this many, and counts the rest).
 */
const KEEP = 10_000;

/** Chrome Trace Event JSON: the streaming checks over the document's lines, once per version. */
export const chromeService: FormatService<ChromeModel> = {
  languageId: 'chrome-trace',
  parse: (doc) => {
    const c = new ChromeChecker({ maxProblems: KEEP });
    for (let i = 0; i < doc.lineCount; i++) c.add(lineText(doc, i), i);
    const found = c.finish();
    return { found, dropped: c.dropped().count };
  },
  diagnostics: (model, _doc, settings) => finalizeDiagnostics(model.found, settings, model.dropped),
};
