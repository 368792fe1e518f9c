import type { TextDocument } from 'vscode-languageserver-textdocument';
import { splitLines } from '../core/common/lines';
import type { FormatDescriptor } from '../core/formatDescriptor';
import type { FormatService } from './formatService';

/**
 * The service of a format with a language but no editor features of its own (no `server/<format>/`):
 * its descriptor's checker, so its files get the diagnostics `npu-trace check` gives, as they are
 * typed. A format adds hovers, navigation and the rest with its own service (`services.ts`).
 */
export function checkerService(f: FormatDescriptor): FormatService<TextDocument> {
  return {
    formatId: f.id,
    parse: (doc) => doc,
    diagnostics: (doc, _doc, settings) => {
      const text = doc.getText();
      if (f.checkDocument) return f.checkDocument(text, settings).diagnostics;
      const c = f.createChecker?.({ maxProblems: settings.maxProblems });
      if (!c) return [];
      splitLines(text).forEach((l, i) => c.add(l, i));
      return c.finishCapped(settings, []).diagnostics;
    },
  };
}
