import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { CmdqDocument } from '../../../core/cmdq/document';
import { hasTopLevelCmdqArray, looksLikeCmdqStart } from '../../../core/cmdq/detect';

const GOLDEN = readFileSync(resolve(__dirname, '../../fixtures/cmdq/golden.cmdq.json'), 'utf8');
const codes = (text: string) => CmdqDocument.parse(text).allDiagnostics().map((d) => d.code);

describe('cmdq parser on bad input', () => {
  it('an empty file and a non-object top level', () => {
    assert.deepEqual(codes(''), ['cmdq.invalid-json']);
    assert.deepEqual(codes('[1, 2]'), ['cmdq.wrong-type']);
    assert.deepEqual(codes('{"metadata": {}}'), ['cmdq.missing-field']);
    assert.deepEqual(codes('{"cmdq": {}}'), ['cmdq.wrong-type']);
  });

  it('every truncation of the golden file gives diagnostics, never a throw', () => {
    for (let n = 0; n < GOLDEN.length; n += 7) {
      const d = CmdqDocument.parse(GOLDEN.slice(0, n)).allDiagnostics();
      assert.ok(d.length > 0, `prefix ${n}`);
    }
  });

  it('every single-character insertion or deletion, in both layouts, gives diagnostics and terminates', () => {
    const indented = JSON.stringify(JSON.parse(GOLDEN), null, 2);
    for (const [base, step] of [[GOLDEN, 1], [indented, 3]] as const) {
      for (let i = 0; i <= base.length; i += step) {
        for (const ins of ['{', '}', '[', ']', ',', '"', ':', '']) {
          const text = base.slice(0, i) + ins + base.slice(ins ? i : i + 1);
          const doc = CmdqDocument.parse(text);
          const d = doc.allDiagnostics();
          for (const x of d) assert.ok(x.range.end.line < text.split('\n').length, `${x.code} past the end`);
          // Recovery keeps the queue: never more entries than the text has opening braces.
          assert.ok(doc.parsed.entries.length <= 7, `insert ${JSON.stringify(ins)} at ${i}: ${doc.parsed.entries.length} entries`);
        }
      }
    }
  });

  it('a stray brace in a 1000-entry queue costs one diagnostic, not a shifted queue', () => {
    const line = GOLDEN.split('\n')[5].replace(/,\s*$/, '');
    const body = Array.from({ length: 1000 }, (_, i) => line.replace('"id": 2', `"id": ${i}`).replace('[0, 1]', i ? `[${i - 1}]` : '[]')).join(',\n');
    const big = `{\n  "cmdq": [\n${body},\n    { "opcode": "END", "id": 1000, "layer_id": null, "deps_before": [999] }\n  ]\n}\n`;
    assert.deepEqual(codes(big), []);
    const at = big.indexOf('"te_id"', big.length / 2);
    for (const stray of ['{', '}', '}}', ']', '[', '{{']) {
      const c = codes(big.slice(0, at) + stray + big.slice(at));
      assert.ok(c.length >= 1 && c.length <= 12, `${stray}: ${c.length} diagnostics: ${c.slice(0, 5).join(', ')}`);
      assert.ok(c.includes('cmdq.invalid-json'));
      assert.ok(!c.includes('cmdq.id-mismatch'), `${stray}: later entries lost their slots`);
    }
  });

  it('a truncated file keeps the entries before the cut and checks them', () => {
    const cut = GOLDEN.slice(0, GOLDEN.indexOf('"opcode": "VE_LAYERNORM_TILE"') + 12);
    const doc = CmdqDocument.parse(cut);
    assert.equal(doc.parsed.entries.length, 4);
    assert.equal(doc.parsed.entries[2].opcode, 'TE_GEMM_TILE');
    assert.ok(codes(cut).includes('cmdq.invalid-json'));
    assert.ok(!codes(cut).includes('cmdq.missing-end'), 'whole-queue checks wait for the file to parse');
  });

  it('a syntax error in one entry leaves the others checked and in their slots', () => {
    const text = GOLDEN.replace('"te_id": 0,', '"te_id": 0 "x",').replace('"id": 4,', '"id": 7,');
    const d = CmdqDocument.parse(text).allDiagnostics();
    // Entry 4 now has id 7, so END's dependency on 4 names nothing.
    assert.deepEqual(d.map((x) => [x.code, x.range.start.line]).sort(), [['cmdq.id-mismatch', 7], ['cmdq.invalid-json', 5], ['cmdq.unknown-dep', 8]]);
  });

  it('a forgotten comma between entries is reported once and the queue still read', () => {
    const text = GOLDEN.replace('"qbits_activation": 8 },', '"qbits_activation": 8 }');
    const doc = CmdqDocument.parse(text);
    assert.equal(doc.parsed.entries.length, 6);
    assert.deepEqual(doc.allDiagnostics().map((x) => x.code), ['cmdq.invalid-json']);
  });

  it('JSONC: comments and trailing commas are tolerated', () => {
    const text = GOLDEN.replace('"cmdq": [', '// hand-edited\n  "cmdq": [ /* six entries */').replace('"deps_before": [4] }', '"deps_before": [4], /* last */ },');
    assert.deepEqual(codes(text), []);
  });

  it('10 000-deep nesting is a diagnostic, not a stack overflow', () => {
    const deep = '['.repeat(10000) + ']'.repeat(10000);
    // Valid JSON nested deep in an extra field is accepted; scanning its ranges stops at the limit quietly.
    const doc = CmdqDocument.parse(`{"cmdq": [{"id": 0, "x": ${deep}, "opcode": "END"}]}`);
    assert.deepEqual(doc.allDiagnostics().map((d) => d.code).sort(), ['cmdq.missing-field', 'cmdq.missing-field']);
    assert.ok(codes(`{"cmdq": [{"id": 0, "x": ${deep.slice(1)}}]}`).includes('cmdq.invalid-json'));
    assert.ok(codes(deep).includes('cmdq.invalid-json'));
    assert.ok(codes('{"cmdq": ' + '['.repeat(100000)).includes('cmdq.invalid-json'));
  });

  it('huge numbers, NaN and a deps_before that is not an array', () => {
    const text = GOLDEN.replace('"dram_addr": 0,', '"dram_addr": 18446744073709551615,').replace('"id": 3,', '"id": 1e400,').replace('"deps_before": [3],', '"deps_before": 3,');
    const d = CmdqDocument.parse(text).allDiagnostics();
    const got = d.map((x) => [x.code, x.range.start.line, x.message]);
    assert.ok(got.some(([c, l, m]) => c === 'cmdq.wrong-type' && l === 6 && /"id" must be an integer, got number 1e400, too large to represent$/.test(m as string)), JSON.stringify(got));
    assert.ok(got.some(([c, l, m]) => c === 'cmdq.wrong-type' && l === 7 && /"deps_before" must be an array/.test(m as string)), JSON.stringify(got));
    assert.ok(codes(GOLDEN.replace('"m": 64', '"m": NaN')).includes('cmdq.invalid-json'));
  });

  it('a million deps: diagnostics, bounded in number per entry', () => {
    const deps = Array.from({ length: 1_000_000 }, (_, i) => (i % 2 ? 'true' : String(i + 10))).join(',');
    const text = GOLDEN.replace('"deps_before": [4] }', `"deps_before": [${deps}] }`);
    const doc = CmdqDocument.parse(text);
    const d = doc.allDiagnostics();
    assert.ok(d.filter((x) => x.code === 'cmdq.wrong-type').length <= 100);
    assert.equal(d.filter((x) => x.code === 'cmdq.unknown-dep').length, 100);
    assert.equal(doc.parsed.entries[5].deps?.length, 1_000_000);
  });
});

describe('cmdq detection in plain JSON', () => {
  it('finds a top-level cmdq array and nothing else', () => {
    assert.equal(hasTopLevelCmdqArray(GOLDEN), true);
    assert.equal(hasTopLevelCmdqArray('// c\n{"a": {"cmdq": []}, "cmdq": [1]}'), true);
    assert.equal(hasTopLevelCmdqArray('{"a": {"cmdq": []}}'), false);
    assert.equal(hasTopLevelCmdqArray('{"cmdq": {}}'), false);
    assert.equal(hasTopLevelCmdqArray('[{"cmdq": []}]'), false);
    assert.equal(hasTopLevelCmdqArray('{"name": "cmdq", "x": [1]}'), false);
  });
  it('the CLI recognises a plain .json from its first line', () => {
    assert.equal(looksLikeCmdqStart('{ "cmdq": ['), true);
    assert.equal(looksLikeCmdqStart('{'), false);
  });
});
