import type { Severity } from '../core/common/diagnostic';
import { lineTooDeep, lineTooLong, MAX_JSON_DEPTH } from '../core/common/lines';
import { finalizeDiagnostics } from '../core/common/settings';
import type { FormatService } from './format';
import { LimitedLines, LineDocument } from './lineDocument';

type Kind = { code: string; severity: Severity };

/**
 * A line-based format's service that parses only lines within the limit (and, for JSON lines,
 * within MAX_JSON_DEPTH): the others read as empty and get one diagnostic each (the first
 * `maxProblems` of them). The limit in force at a full parse holds until the next one; an edit
 * under a changed limit parses the document again.
 */
export function withLineLimit<M>(s: FormatService<M>, kinds: { long: Kind; deep?: Kind }, maxLine: () => number): FormatService<M> {
  let limit = maxLine();
  const depth = kinds.deep ? MAX_JSON_DEPTH : undefined;
  const view = (doc: unknown) => (doc instanceof LineDocument ? new LimitedLines(doc, limit, depth) : doc) as LineDocument;
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
      const skipped = doc instanceof LineDocument ? new LimitedLines(doc, limit, depth).skippedLines(settings.maxProblems) : { lines: [], count: 0 };
      if (skipped.count === 0) return s.diagnostics(model, doc, settings);
      // The format's own diagnostics uncapped, then capped once with these.
      const own = s.diagnostics(model, doc, { ...settings, maxProblems: Number.MAX_SAFE_INTEGER });
      const mine = skipped.lines.map(([i, why]) => why === 'long' || !kinds.deep
        ? lineTooLong(kinds.long, i, (doc as LineDocument).line(i).length, limit, 'characters')
        : lineTooDeep(kinds.deep, i, MAX_JSON_DEPTH));
      return finalizeDiagnostics(own.concat(mine), settings, skipped.count - skipped.lines.length);
    },
  };
}
