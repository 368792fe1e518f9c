// Hover, definition, references and the outline on generated traces, at any position: they never
// throw and every location they return lies inside the document.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TraceDocument } from '../../core/trace/document';
import { hoverAt } from '../../core/trace/hover';
import { definitionAt, referencesAt, type LineTarget } from '../../core/trace/navigation';
import { documentSymbols } from '../../core/trace/symbols';
import { traceLine } from '../unit/trace/lineGen';

function inside(doc: TraceDocument, t: LineTarget, what: string): void {
  const len = doc.lines[t.line]?.text.length;
  assert.ok(len !== undefined, `${what}: line ${t.line} outside the document`);
  assert.ok(t.start >= 0 && t.start <= t.end && t.end <= len, `${what}: ${t.start}..${t.end} on a line of length ${len}`);
}

/** A document and positions in it: mostly on characters of real lines, some outside. */
const docAndPositions = fc.array(traceLine, { minLength: 1, maxLength: 25 }).chain((lines) =>
  fc.tuple(
    fc.constant(lines),
    fc.array(fc.oneof(
      { weight: 9, arbitrary: fc.nat({ max: lines.length - 1 }).chain((l) => fc.tuple(fc.constant(l), fc.nat({ max: lines[l].length }))) },
      { weight: 1, arbitrary: fc.tuple(fc.integer({ min: -2, max: lines.length + 2 }), fc.integer({ min: -2, max: 500 })) },
    ), { minLength: 1, maxLength: 20 }),
  ));

describe('trace navigation fuzz', () => {
  it('hover, definition, references and symbols stay inside the document', () => {
    fc.assert(fc.property(docAndPositions, ([lines, positions]) => {
      const doc = TraceDocument.parse(lines.join('\n'));
      for (const s of documentSymbols(doc)) {
        inside(doc, s.selection, 'symbol');
        assert.ok(s.startLine <= s.endLine && s.endLine < doc.lines.length && s.name.length > 0);
      }
      for (const [line, ch] of positions) {
        const h = hoverAt(doc, line, ch);
        if (h) {
          inside(doc, h, 'hover');
          assert.ok(h.line === line && h.start <= ch && ch <= h.end, 'hover range covers the position');
          assert.ok(h.markdown.length > 0 && !/undefined|NaN|\[object/.test(h.markdown), h.markdown);
        }
        const d = definitionAt(doc, line, ch);
        if (d) inside(doc, d, 'definition');
        for (const r of referencesAt(doc, line, ch)) inside(doc, r, 'reference');
        assert.ok(referencesAt(doc, line, ch, false).length <= referencesAt(doc, line, ch).length);
      }
    }), { numRuns: 300 });
  });
});
