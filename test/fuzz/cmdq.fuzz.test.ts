// Property-based fuzzing of the CMDQ core: generated queues, then truncated, spliced and mutated.
// Parsing, diagnostics, navigation, completion and every quick fix never throw, every range lies
// inside the document, and the CLI checker says exactly what the editor says.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { completionsAt } from '../../core/cmdq/completion';
import { CmdqDocument } from '../../core/cmdq/document';
import { fixesFor } from '../../core/cmdq/fixes';
import { cmdqFormat } from '../../core/cmdq/descriptor';
import { definitionAt, referencesAt, tokenAt } from '../../core/cmdq/navigation';
import { entryHover } from '../../core/cmdq/summary';
import { entryLenses, layerSymbols } from '../../core/cmdq/symbols';
import { splitLines } from '../../core/common/lines';
import type { Range } from '../../core/common/diagnostic';
import { finalizeDiagnostics } from '../../core/common/settings';

const CODES = ['cmdq.invalid-json', 'cmdq.unknown-opcode', 'cmdq.missing-field', 'cmdq.wrong-type', 'cmdq.invalid-value', 'cmdq.id-mismatch',
  'cmdq.duplicate-id', 'cmdq.unknown-dep', 'cmdq.self-dep', 'cmdq.forward-dep', 'cmdq.dep-cycle', 'cmdq.duplicate-dep', 'cmdq.missing-end',
  'cmdq.end-not-last', 'cmdq.end-deps', 'cmdq.spm-overlap'];

const opcode = fc.constantFrom('DMA_LOAD_TILE', 'DMA_STORE_TILE', 'TE_GEMM_TILE', 'VE_LAYERNORM_TILE', 'VE_X_TILE', 'END', 'DMA_LOAD', 'te_gemm_tile', '');
const small = fc.oneof(fc.nat({ max: 12 }), fc.constant(-1), fc.constant(2 ** 60), fc.constant(1.5));
const value = fc.oneof(small, fc.string({ maxLength: 6 }), fc.constant(null), fc.boolean(), fc.array(small, { maxLength: 3 }));
const entry = fc.record({
  opcode, id: fc.oneof({ weight: 4, arbitrary: fc.nat({ max: 12 }) }, { weight: 1, arbitrary: value }),
  layer_id: fc.oneof(fc.constantFrom('l0', 'l1', null), value),
  deps_before: fc.oneof({ weight: 5, arbitrary: fc.array(fc.nat({ max: 14 }), { maxLength: 4 }) }, { weight: 1, arbitrary: value }),
  tensor_role: fc.constantFrom('ifm', 'wgt'), qbits: fc.constantFrom(8, 4, 3), dram_addr: small, spm_bank: fc.nat({ max: 2 }),
  spm_offset: fc.constantFrom(0, 64, 128), num_elements: fc.constantFrom(64, 128, 0),
  te_id: small, ifm_bank: small, wgt_bank: small, ofm_bank: small, m: small, n: small, k: small, ve_id: small, length: small, qbits_activation: small,
}, { requiredKeys: ['opcode', 'id'] });

const queue = fc.tuple(fc.array(entry, { maxLength: 10 }), fc.boolean(), fc.boolean()).map(([es, pretty, meta]) => {
  const cmdq = es.map((e, i) => (typeof e.id === 'number' && e.id < 13 ? { ...e, id: i % 3 === 0 ? e.id : i } : e));
  const body: Record<string, unknown> = { cmdq };
  if (meta) body.metadata = { graph_name: 'g', version: 1 };
  if (!pretty) return JSON.stringify(body);
  // The §4.4 style: one entry per line.
  return `{\n  "cmdq": [\n${cmdq.map((e) => '    ' + JSON.stringify(e)).join(',\n')}\n  ]${meta ? ',\n  "metadata": {"version": 1}' : ''}\n}\n`;
});

/** Generated queues, and the same broken by typing: cut, spliced, or with characters replaced. */
const text = fc.oneof(
  { weight: 2, arbitrary: queue },
  { weight: 3, arbitrary: fc.tuple(queue, fc.nat(), fc.nat({ max: 40 }), fc.constantFrom('', ',', '}', ']', '[', '{', '"', ':', '//', '/*', '1e999', 'NaN', '\n', '\r\n', '\\', '"\u2028"')).map(
    ([t, at, len, ins]) => { const p = at % (t.length + 1); return t.slice(0, p) + ins + t.slice(p + len); }) },
  { weight: 1, arbitrary: fc.tuple(queue, fc.nat()).map(([t, at]) => t.slice(0, at % (t.length + 1))) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);

function saneRange(r: Range, lines: string[], what: string): void {
  const ok = (p: Range['start']) => p.line >= 0 && p.line < lines.length && p.character >= 0 && p.character <= lines[p.line].length;
  assert.ok(ok(r.start) && ok(r.end), `${what}: ${JSON.stringify(r)}`);
  assert.ok(r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character), `${what}: reversed`);
}

function exercise(t: string, offsets: number[]): void {
  const lines = splitLines(t);
  const doc = CmdqDocument.parse(t);
  const all = doc.allDiagnostics();
  for (const d of all) {
    assert.ok(CODES.includes(d.code), d.code);
    saneRange(d.range, lines, d.code);
    for (const r of d.related ?? []) saneRange(r.range, lines, `related of ${d.code}`);
    assert.ok(d.message.length > 0 && !/undefined|\[object/.test(d.message), d.message);
  }
  if (!t.includes('\r') && !t.includes('\u2028')) {
    const c = cmdqFormat.createChecker!();
    lines.forEach((l, i) => c.add(l, i));
    assert.deepEqual(c.finish(), all);
  }
  // The cap applied while producing keeps what sorting everything and cutting keeps; its count is
  // exact, or a lower bound said as "at least".
  for (const max of [1, 3]) {
    const [sum, ...kept] = finalizeDiagnostics(all, { severity: {}, maxProblems: max });
    const capped = CmdqDocument.parse(t).diagnostics({ severity: {}, maxProblems: max });
    if (all.length <= max) {
      assert.deepEqual(capped, all);
      continue;
    }
    assert.deepEqual(capped.slice(1), kept);
    const exact = Number(/^(\d+) further/.exec(sum.message)![1]);
    const m = /^(at least )?(\d+) further/.exec(capped[0].message)!;
    assert.ok(m[1] ? Number(m[2]) <= exact && Number(m[2]) > 0 : Number(m[2]) === exact, `${capped[0].message} vs ${exact}`);
  }
  const inDoc = (s: { start: number; end: number }) => assert.ok(s.start >= 0 && s.start <= s.end && s.end <= t.length, JSON.stringify(s));
  for (const s of layerSymbols(doc)) inDoc(s);
  assert.ok(entryLenses(doc).length <= doc.parsed.entries.length);
  for (const raw of offsets) {
    const off = raw % (t.length + 1);
    const tok = tokenAt(doc, off);
    if (tok) {
      inDoc(tok);
      assert.ok(tok.start <= off && off <= tok.end);
      if (tok.target >= 0) assert.ok(!/undefined|NaN/.test(entryHover(doc, tok.target)));
    }
    const def = definitionAt(doc, off);
    if (def) inDoc(def);
    for (const r of referencesAt(doc, off, true)) inDoc(r);
    for (const c of completionsAt(doc, off)) inDoc({ start: c.replaceStart, end: c.replaceEnd });
  }
  for (const d of all) {
    for (const f of fixesFor(doc, d.code, doc.offsetAt(d.range.start))) {
      const edits = [...f.edits].sort((a, b) => a.start - b.start);
      edits.forEach((e, i) => { inDoc(e); if (i) assert.ok(edits[i - 1].end <= e.start, 'edits overlap'); });
    }
  }
}

describe('cmdq fuzz', () => {
  it('generated and mutated queues: diagnostics, navigation and fixes never throw and stay in range', () => {
    fc.assert(fc.property(text, fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), (t, offs) => exercise(t, offs)), { numRuns: 400 });
  });

  it('the quick fixes leave a generated queue with fewer problems of the fixed kind', () => {
    fc.assert(fc.property(queue, (t) => {
      const doc = CmdqDocument.parse(t);
      for (const code of ['cmdq.id-mismatch', 'cmdq.missing-end', 'cmdq.duplicate-dep']) {
        const d = doc.allDiagnostics().find((x) => x.code === code);
        if (!d) continue;
        const [fix] = fixesFor(doc, code, doc.offsetAt(d.range.start));
        if (!fix) continue;
        let out = t;
        for (const e of [...fix.edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
        const count = (x: string) => CmdqDocument.parse(x).allDiagnostics().filter((y) => y.code === code).length;
        assert.ok(count(out) < count(t), `${code}: ${t}\n→ ${out}`);
      }
    }), { numRuns: 200 });
  });
});
