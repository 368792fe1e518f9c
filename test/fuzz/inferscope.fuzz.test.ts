// Property-based fuzzing of the InferScope core: generated traces and analysis results, then
// truncated, spliced and mutated. Parsing, diagnostics, hover, navigation, the outline, the
// timeline and the analysis never throw, every range lies inside the document, and the CLI's line
// checker says exactly what the editor says.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Range } from '../../core/common/diagnostic';
import { splitLines } from '../../core/common/lines';
import { analyze } from '../../core/inferscope/analyze';
import { InferscopeDocument } from '../../core/inferscope/document';
import { inferscopeFormat } from '../../core/inferscope/descriptor';
import { hoverAt } from '../../core/inferscope/hover';
import { definitionAt, referencesAt } from '../../core/inferscope/navigation';
import { outline, type OutlineNode } from '../../core/inferscope/symbols';
import { buildTimeline } from '../../core/detectFormat';
import { faultyAnalysis, inferscopeTrace, pretty } from '../gen/inferscopeGen';

const CODES = ['invalid-json', 'schema', 'unsupported-version', 'duplicate-id', 'end-before-start', 'duration-mismatch', 'kernel-overlap',
  'scope-containment', 'unknown-scope', 'event-range', 'scope-cycle', 'wall-clock-mismatch', 'percent-sum', 'confidence-range',
  'no-evidence', 'summary-mismatch'].map((c) => `inferscope.${c}`);

const odd = fc.oneof(fc.integer({ min: -3, max: 40 }), fc.constant(1.5), fc.constant(1e300), fc.string({ maxLength: 5 }), fc.constant(null), fc.constant([]), fc.constant({}));
/** A generated trace with some fields replaced by odd values (ids, parents, ranges, times). */
const trace = fc.tuple(fc.integer({ min: 1, max: 3 }), fc.array(fc.tuple(fc.nat(), fc.constantFrom('id', 'type', 'timestamp_start_us', 'timestamp_end_us', 'duration_us', 'wall_clock_start', 'metadata'), odd), { maxLength: 4 }),
  fc.array(fc.tuple(fc.nat(), fc.constantFrom('id', 'parent_id', 'child_ids', 'event_range'), fc.oneof(odd, fc.constantFrom('scope_inference', 'scope_gpu_0', 'scope_request_0'))), { maxLength: 4 }), fc.boolean())
  .map(([requests, evMut, scMut, compact]) => {
    const t = inferscopeTrace({ requests, kernels: 2 });
    const ev = t.events as Record<string, unknown>[];
    const sc = (t.relationships as { scopes: Record<string, unknown>[] }).scopes;
    for (const [i, k, v] of evMut) ev[i % ev.length][k] = v;
    for (const [i, k, v] of scMut) sc[i % sc.length][k] = v;
    return compact ? JSON.stringify(t) : pretty(t);
  });
const analysis = fc.tuple(fc.constantFrom('confidence', 'evidence', 'percentage', 'duration_us', 'type'), odd).map(([k, v]) => {
  const a = JSON.parse(faultyAnalysis()) as Record<string, Record<string, unknown> & unknown[]>;
  if (k === 'confidence' || k === 'evidence' || k === 'type') a.bottleneck[k] = v;
  else (a.timeline_breakdown[1] as Record<string, unknown>)[k] = v;
  return pretty(a);
});

const text = fc.oneof(
  { weight: 3, arbitrary: trace },
  { weight: 1, arbitrary: analysis },
  { weight: 3, arbitrary: fc.tuple(trace, fc.nat(), fc.nat({ max: 40 }), fc.constantFrom('', ',', '}', ']', '[', '{', '"', ':', 'NaN', '1e999', '\n', '\\', '"\u2028"')).map(
    ([t, at, len, ins]) => { const p = at % (t.length + 1); return t.slice(0, p) + ins + t.slice(p + len); }) },
  { weight: 1, arbitrary: fc.tuple(trace, fc.nat()).map(([t, at]) => t.slice(0, at % (t.length + 1))) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);

function saneRange(r: Range, lines: string[], what: string): void {
  const ok = (p: Range['start']) => p.line >= 0 && p.line < lines.length && p.character >= 0 && p.character <= lines[p.line].length;
  assert.ok(ok(r.start) && ok(r.end), `${what}: ${JSON.stringify(r)}`);
  assert.ok(r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character), `${what}: reversed`);
}

function exercise(t: string, offsets: number[]): void {
  const lines = splitLines(t);
  const doc = InferscopeDocument.parse(t);
  const all = doc.allDiagnostics();
  for (const d of all) {
    assert.ok(CODES.includes(d.code), d.code);
    saneRange(d.range, lines, d.code);
    for (const r of d.related ?? []) saneRange(r.range, lines, `related of ${d.code}`);
    assert.ok(d.message.length > 0 && !/undefined|\[object|NaN µs|NaN%/.test(d.message), d.message);
  }
  if (!t.includes('\r') && !t.includes('\u2028')) {
    const c = inferscopeFormat.createChecker!();
    lines.forEach((l, i) => c.add(l, i));
    assert.deepEqual(c.finish(), all);
  }
  const inDoc = (s: { start: number; end: number }) => assert.ok(s.start >= 0 && s.start <= s.end && s.end <= t.length, JSON.stringify(s));
  const walk = (n: OutlineNode) => { inDoc(n); n.children.forEach(walk); };
  outline(doc).forEach(walk);
  for (const raw of offsets) {
    const off = raw % (t.length + 1);
    const h = hoverAt(doc, off);
    if (h) {
      inDoc(h);
      // A computed NaN shows as a time; the text's own strings may hold "NaN" (spliced in above).
      assert.ok(!/undefined|NaN µs|NaN ms|\[object/.test(h.markdown), h.markdown);
    }
    const def = definitionAt(doc, off);
    if (def) inDoc(def);
    for (const r of referencesAt(doc, off, true)) inDoc(r);
  }
  if (doc.kind === 'trace') {
    const a = analyze(doc);
    assert.ok(a.timeline_breakdown.every((b) => Number.isFinite(b.percentage) && b.duration_us >= 0));
    try {
      buildTimeline('x.inferscope.json', lines);
    } catch (e) {
      // The one refusal allowed: a file that is not a trace at all.
      assert.match((e as Error).message, /not a trace|Not an InferScope trace/);
    }
  }
}

describe('inferscope fuzz', () => {
  it('generated and mutated traces and analyses: diagnostics, navigation, outline, timeline and analysis never throw and stay in range', () => {
    fc.assert(fc.property(text, fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), (t, offs) => exercise(t, offs)), { numRuns: 300 });
  });
});
