import type { Severity } from '../core/common/diagnostic';
import { lineTooLong } from '../core/common/lines';
import { finalizeDiagnostics } from '../core/common/settings';
import type { FormatService } from './format';
import { LimitedLines, LineDocument } from './lineDocument';

/**
 * A line-based format's service that parses only lines within the limit: longer ones read as
 * empty and get one diagnostic each (the first `maxProblems` of them). The limit in force at a
 * full parse holds until the next one; an edit under a changed limit parses the document again.
 */
export function withLineLimit<M>(s: FormatService<M>, kind: { code: string; severity: Severity }, maxLine: () => number): FormatService<M> {
  let limit = maxLine();
  const view = (doc: unknown) => (doc instanceof LineDocument ? new LimitedLines(doc, limit) : doc) as LineDocument;
  return {
    ...s,
    parse: (doc) => {
      limit = maxLine();
      return s.parse(view(doc));
    },
    update: s.update && ((model, doc, edits) => {
      if (maxLine() === limit) return s.update!(model, view(doc), edits);
      limit = maxLine();
      return s.parse(view(doc));
    }),
    diagnostics: (model, doc, settings) => {
      const lines = doc instanceof LineDocument ? new LimitedLines(doc, limit).longLines(settings.maxProblems) : { lines: [], count: 0 };
      if (lines.count === 0) return s.diagnostics(model, doc, settings);
      // The format's own diagnostics uncapped, then capped once with these.
      const own = s.diagnostics(model, doc, { ...settings, maxProblems: Number.MAX_SAFE_INTEGER });
      const long = lines.lines.map((i) => lineTooLong(kind, i, (doc as LineDocument).line(i).length, limit, 'characters'));
      return finalizeDiagnostics(own.concat(long), settings, lines.count - lines.lines.length);
    },
  };
}
