import { CMDQ_CODES } from '../../../core/cmdq/codes';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { CmdqDocument } from '../../../core/cmdq/document';
import type { Diagnostic } from '../../../core/common/diagnostic';

const FIX = resolve(__dirname, '../../fixtures/cmdq');
const read = (name: string) => readFileSync(resolve(FIX, `${name}.cmdq.json`), 'utf8');

/** Diagnostics of a fixture as [code, 1-based line, text under the range]. */
function check(name: string): { diags: Diagnostic[]; rows: [string, number, string][] } {
  const text = read(name);
  const lines = text.split('\n');
  const diags = CmdqDocument.parse(text).allDiagnostics();
  const rows = diags.map((d): [string, number, string] => {
    const r = d.range;
    const under = r.start.line === r.end.line ? lines[r.start.line].slice(r.start.character, r.end.character) : '';
    return [d.code, r.start.line + 1, under];
  });
  return { diags, rows };
}

// Each faulty fixture is the §4.4 golden CMDQ with one mistake; every expected problem is listed
// with its line and the exact token the diagnostic covers.
const CASES: Record<string, [string, number, string][]> = {
  'invalid-json': [['cmdq.invalid-json', 6, '1']],
  'unknown-opcode': [['cmdq.unknown-opcode', 7, '"VE_LAYERNORM"']],
  'missing-field': [['cmdq.missing-field', 5, '"DMA_LOAD_TILE"']],
  'wrong-type': [['cmdq.wrong-type', 6, '"64"']],
  'invalid-value': [['cmdq.invalid-value', 4, '3']],
  'id-mismatch': [['cmdq.id-mismatch', 9, '9']],
  'duplicate-id': [['cmdq.duplicate-id', 9, '4'], ['cmdq.id-mismatch', 9, '4'], ['cmdq.self-dep', 9, '4']],
  'unknown-dep': [['cmdq.unknown-dep', 8, '42']],
  'self-dep': [['cmdq.self-dep', 7, '3']],
  'forward-dep': [['cmdq.forward-dep', 4, '1']],
  'dep-cycle': [['cmdq.forward-dep', 6, '4'], ['cmdq.dep-cycle', 6, '4'], ['cmdq.dep-cycle', 7, '2'], ['cmdq.dep-cycle', 8, '3']],
  'duplicate-dep': [['cmdq.duplicate-dep', 6, '1']],
  'missing-end': [['cmdq.missing-end', 3, '"cmdq"']],
  'end-not-last': [['cmdq.end-not-last', 9, '"END"'], ['cmdq.end-deps', 9, '[4]']],
  'end-deps': [['cmdq.end-deps', 9, '[3]']],
  'spm-overlap': [['cmdq.spm-overlap', 5, '0']],
  // deps_before [3, 6, 7, …, 106]: the first 100 unknown ids are listed, the 101st is said on the list.
  'deps-not-listed': [
    ...Array.from({ length: 100 }, (_, i): [string, number, string] => ['cmdq.unknown-dep', 8, String(6 + i)]),
    ['cmdq.deps-not-listed', 8, `[${[3, ...Array.from({ length: 101 }, (_, i) => 6 + i)].join(', ')}]`],
  ],
};

describe('cmdq diagnostics, one faulty fixture per code', () => {
  it('the golden CMDQ of §4.4 is clean', () => {
    assert.deepEqual(check('golden').rows, []);
  });
  for (const [name, expected] of Object.entries(CASES)) {
    it(`${name}: reported on the exact token`, () => {
      const sort = (r: [string, number, string][]) => [...r].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
      assert.deepEqual(sort(check(name).rows), sort(expected));
    });
  }

  it('the code list (the manual\'s table) documents exactly the codes that have a fixture here', () => {
    const documented = [...new Set(CMDQ_CODES.map((c) => c.code))].sort();
    assert.deepEqual(documented, Object.keys(CASES).map((n) => `cmdq.${n}`).sort());
    for (const [name, rows] of Object.entries(CASES)) assert.ok(rows.some(([code]) => code === `cmdq.${name}`), name);
  });

  it('suggests the nearest opcode', () => {
    const d = check('unknown-opcode').diags[0];
    assert.match(d.message, /did you mean "VE_LAYERNORM_TILE"/);
    const typo = CmdqDocument.parse(read('golden').replace('"TE_GEMM_TILE"', '"TE_GEM_TILE"')).allDiagnostics();
    assert.match(typo.find((x) => x.code === 'cmdq.unknown-opcode')!.message, /did you mean "TE_GEMM_TILE"/);
  });

  it('names the whole cycle and relates every other member', () => {
    const cyc = check('dep-cycle').diags.filter((d) => d.code === 'cmdq.dep-cycle');
    assert.equal(cyc.length, 3);
    for (const d of cyc) {
      assert.match(d.message, /2 → 4 → 3 → 2/);
      assert.equal(d.related?.length, 2);
      assert.ok(d.related!.every((r) => r.range.start.line !== d.range.start.line));
    }
  });

  it('explains the SPM overlap with the tile and its reader', () => {
    const d = check('spm-overlap').diags[0];
    assert.match(d.message, /bank 0 bytes \[0, 4096\) overlap bytes \[0, 4096\) loaded by entry 0/);
    assert.match(d.message, /read by 2/);
    assert.deepEqual(d.related?.map((r) => r.range.start.line + 1), [4, 6]);
  });

  it('no spm-overlap when the second load waits for every reader of the first', () => {
    const text = read('golden').replace(
      '    { "opcode": "END",               "id": 5, "layer_id": null,       "deps_before": [4] }',
      '    { "opcode": "DMA_LOAD_TILE", "id": 5, "layer_id": "ffn_1", "deps_before": [2], "tensor_role": "ifm", "qbits": 8, "dram_addr": 0, "spm_bank": 0, "spm_offset": 1024, "num_elements": 64 },\n' +
      '    { "opcode": "END", "id": 6, "layer_id": null, "deps_before": [4, 5] }');
    assert.deepEqual(CmdqDocument.parse(text).allDiagnostics(), []);
    // Without waiting for the GEMM (entry 2) that reads tile 0, the same load is reported.
    const racy = text.replace('"deps_before": [2], "tensor_role"', '"deps_before": [], "tensor_role"');
    assert.deepEqual(CmdqDocument.parse(racy).allDiagnostics().map((d) => d.code), ['cmdq.spm-overlap']);
  });

  it('a key with "/" or "~" (a JSON Pointer escape in ajv) is named and located as written', () => {
    const text = read('golden').replace('"qbits_ofm": 8', '"qbits_/~x": 3');
    const [d] = CmdqDocument.parse(text).allDiagnostics();
    assert.equal(d.message, '"qbits_/~x" must be one of 1, 2, 4, 8, 16, 32; got number 3');
    assert.equal(text.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character), '3');
  });

  it('reports a metadata field of the wrong type', () => {
    const d = CmdqDocument.parse(read('golden').replace('"version": "1.0"', '"version": 1')).allDiagnostics();
    assert.deepEqual(d.map((x) => [x.code, x.range.start.line]), [['cmdq.wrong-type', 1]]);
  });
});
