import type { Severity } from '../core/common/diagnostic';
import { lineTooDeep, lineTooLong, MAX_JSON_DEPTH } from '../core/common/lines';
import { finalizeDiagnostics } from '../core/common/settings';
import { insertSorted } from '../core/trace/sorted';
import type { LineEdit } from './formatService';
import type { FormatService } from './formatService';
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
  // The lines each document skips, found once at a parse and then kept through edits: looking
  // for them at each publish read every line of the document.
  const skips = new WeakMap<LineDocument, { limit: number; lines: number[] }>();
  const track = (doc: unknown) => {
    if (!(doc instanceof LineDocument)) return;
    const v = new LimitedLines(doc, limit, depth);
    const lines: number[] = [];
    for (let i = 0; i < doc.lineCount; i++) if (v.skipped(i)) lines.push(i);
    skips.set(doc, { limit, lines });
  };
  return {
    ...s,
    parse: (doc) => {
      limit = maxLine();
      track(doc);
      return s.parse(view(doc));
    },
    update: s.update && ((model, doc, edits) => {
      if (maxLine() === limit) {
        const kept = doc instanceof LineDocument ? skips.get(doc) : undefined;
        if (kept?.limit === limit) followEdits(kept.lines, edits, new LimitedLines(doc as LineDocument, limit, depth));
        else track(doc);
        return s.update!(model, view(doc), edits);
      }
      limit = maxLine();
      track(doc);
      return s.parse(view(doc));
    }),
    diagnostics: (model, doc, settings) => {
      const v = doc instanceof LineDocument ? new LimitedLines(doc, limit, depth) : undefined;
      const kept = v && skips.get(doc as LineDocument);
      const skipped = !v ? { lines: [], count: 0 }
        : kept?.limit === limit ? { lines: kept.lines.slice(0, settings.maxProblems).map((i): [number, 'long' | 'deep'] => [i, v.skipped(i) ?? 'long']), count: kept.lines.length }
        : v.skippedLines(settings.maxProblems);
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

/**
 * `skipped` (sorted line numbers) brought through `edits`, applied in order: the lines an edit
 * replaced leave, the lines below move, and the lines it wrote are looked at once all are
 * applied (their text is known only in the final document, `v`).
 */
function followEdits(skipped: number[], edits: readonly LineEdit[], v: LimitedLines): void {
  let fresh: number[] = [];
  const move = (a: number[], e: LineEdit) => {
    const delta = e.newCount - (e.end - e.start);
    let w = 0;
    for (const i of a) {
      if (i >= e.start && i < e.end) continue;
      a[w++] = i >= e.end ? i + delta : i;
    }
    a.length = w;
  };
  for (const e of edits) {
    move(skipped, e);
    move(fresh, e);
    for (let i = e.start; i < e.start + e.newCount; i++) fresh.push(i);
  }
  fresh = [...new Set(fresh)].filter((i) => v.skipped(i) !== undefined);
  for (const i of fresh) insertSorted(skipped, i);
}
