// The cap applied while problems are produced, ids that are not safe integers, a BOM, and the
// wording of missing-end and end-deps.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CmdqDocument } from '../../../core/cmdq/document';
import { cmdqFormat } from '../../../core/cmdq/descriptor';
import { compareDiagnostics } from '../../../core/common/diagnostic';
import { defaultDiagnosticSettings, finalizeDiagnostics, type DiagnosticSettings } from '../../../core/common/settings';

const GOLDEN = readFileSync(resolve(__dirname, '../../fixtures/cmdq/golden.cmdq.json'), 'utf8');
const settings = (maxProblems: number, severity: DiagnosticSettings['severity'] = {}): DiagnosticSettings => ({ severity, maxProblems });

/** A queue whose entries are given as JSON texts, one per line. */
const queue = (entries: string[]) => `{\n  "cmdq": [\n    ${entries.join(',\n    ')}\n  ]\n}\n`;
const entry = (id: string | number, deps = '[]', op = 'DMA_STORE_TILE') =>
  `{ "opcode": "${op}", "id": ${id}, "layer_id": "l", "deps_before": ${deps}${op === 'END' ? '' : ', "tensor_role": "ofm", "qbits": 8, "dram_addr": 0, "spm_bank": 2, "spm_offset": 0, "num_elements": 16'} }`;

function under(text: string, d: { range: { start: { line: number; character: number }; end: { character: number } } }): string {
  return text.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character);
}

describe('cmdq: the cap while producing', () => {
  /** Bad ids, unknown and forward deps, an SPM-free mix, and (optionally) schema problems, spread through the file. */
  function mixed(schema: boolean): string {
    const es: string[] = [];
    for (let i = 0; i < 60; i++) {
      if (i % 7 === 3) es.push(entry(i + 1));
      else if (i % 5 === 1) es.push(entry(i, `[${i + 2}, 999]`));
      else if (schema && i % 11 === 4) es.push(`{ "opcode": "TE_GEMM_TILE", "id": ${i}, "layer_id": 1, "deps_before": [] }`);
      else es.push(entry(i, i ? `[${i - 1}]` : '[]'));
    }
    return queue(es);
  }
  const overrides: DiagnosticSettings['severity'][] = [{}, { 'cmdq.id-mismatch': 'off' }, { 'cmdq.forward-dep': 'warning' }];

  it('keeps the same first problems as sorting them all and cutting, with an exact count', () => {
    const text = mixed(false);
    const all = CmdqDocument.parse(text).allDiagnostics();
    assert.ok(all.length > 40, `${all.length} problems`);
    for (const max of [1, 2, 5, 17, 40, all.length - 1, all.length, 5000]) {
      for (const severity of overrides) {
        const expected = finalizeDiagnostics(all, settings(max, severity));
        assert.deepEqual(CmdqDocument.parse(text).diagnostics(settings(max, severity)), expected, `max ${max} ${JSON.stringify(severity)}`);
      }
    }
  });

  it('with schema problems past the cap: the same kept problems, a count that is a lower bound', () => {
    const text = mixed(true);
    const all = CmdqDocument.parse(text).allDiagnostics();
    for (const max of [1, 5, 17, 40, 5000]) {
      for (const severity of overrides) {
        const [sum, ...kept] = finalizeDiagnostics(all, settings(max, severity));
        const [got, ...gotKept] = CmdqDocument.parse(text).diagnostics(settings(max, severity));
        if (max >= all.length) {
          assert.deepEqual(got, sum);
          continue;
        }
        assert.deepEqual(gotKept, kept, `max ${max}`);
        const exact = Number(/^(\d+) further/.exec(sum.message)![1]);
        const m = /^(at least )?(\d+) further/.exec(got.message)!;
        assert.ok(m[1] ? Number(m[2]) <= exact : Number(m[2]) === exact, `${got.message} vs ${exact}`);
      }
    }
  });

  it('past the cap schema problems are only counted, and the summary says "at least"', () => {
    const text = queue(Array.from({ length: 3000 }, () => '{}'));
    const { diagnostics, hasError } = CmdqDocument.parse(text).capped(settings(10));
    assert.equal(diagnostics.length, 11);
    assert.equal(diagnostics[0].code, 'too-many-problems');
    assert.match(diagnostics[0].message, /^at least \d+ further problems not shown \(limit 10,/);
    const n = Number(/\d+/.exec(diagnostics[0].message)![0]);
    // At least one per entry not shown, never more than there are.
    assert.ok(n >= 2990 && n <= CmdqDocument.parse(text).allDiagnostics().length - 10, `${n}`);
    assert.ok(hasError);
    assert.deepEqual(diagnostics.slice(1), CmdqDocument.parse(text).allDiagnostics().slice(0, 10));
  });

  it('past the cap located problems are counted exactly and stay errors for the exit status', () => {
    // missing-end (made a warning) first, then 500 id-mismatch errors: with max 1 only the warning is shown.
    const text = queue([entry(0), ...Array.from({ length: 500 }, (_, i) => entry(i + 7))]);
    const all = CmdqDocument.parse(text).allDiagnostics();
    const capped = CmdqDocument.parse(text).capped(settings(1, { 'cmdq.missing-end': 'warning' }));
    assert.deepEqual(capped.diagnostics.map((d) => [d.code, d.severity]), [['too-many-problems', 'information'], ['cmdq.missing-end', 'warning']]);
    assert.equal(capped.diagnostics[0].message, `${all.length - 1} further problems not shown (limit 1, setting npuTrace.diagnostics.maxProblems)`);
    assert.equal(capped.hasError, true);
    const quiet = CmdqDocument.parse(text).capped(settings(1, { 'cmdq.missing-end': 'warning', 'cmdq.id-mismatch': 'hint' }));
    assert.equal(quiet.hasError, false);
    assert.equal(quiet.diagnostics[0].message, `${all.length - 1} further problems not shown (limit 1, setting npuTrace.diagnostics.maxProblems)`);
    const off = CmdqDocument.parse(text).capped(settings(1, { 'cmdq.id-mismatch': 'off' }));
    assert.deepEqual(off.diagnostics.map((d) => d.code), ['cmdq.missing-end']);
  });

  it('the CLI checker caps the same way and reports errors past the cap', () => {
    const text = queue(Array.from({ length: 2000 }, (_, i) => entry(i + 1)));
    const c = cmdqFormat.createChecker!();
    text.split('\n').forEach((l, i) => c.add(l, i));
    const r = c.finishCapped(settings(3), []);
    assert.equal(r.diagnostics.length, 4);
    assert.equal(r.hasError, true);
    assert.deepEqual(r.diagnostics, CmdqDocument.parse(text).diagnostics(settings(3)));
  });

  it('a pasted duplicate entry: the shifted ids past the cap are counted, not located', () => {
    const es = Array.from({ length: 3000 }, (_, i) => entry(i, i ? `[${i - 1}]` : '[]'));
    es.push(entry(3000, '[2999]', 'END'));
    const text = queue([...es.slice(0, 10), es[9], ...es.slice(10)]);
    const doc = CmdqDocument.parse(text);
    const d = doc.diagnostics(defaultDiagnosticSettings);
    assert.equal(d.length, 1001);
    assert.match(d[0].message, /^\d+ further problems not shown/);
    // Ranges are scanned for the entries whose problems are shown, not for the 2000 after them.
    const scanned = doc.parsed.entries.filter((e) => e.ranges !== undefined).length;
    assert.ok(scanned <= 1010, `${scanned} entries scanned for ranges`);
  });
});

describe('cmdq: ids and deps that are not safe integers', () => {
  it('1e300, 2^53 + 1 and a 20-digit id get invalid-value on the id, naming the number as written', () => {
    for (const id of ['1e300', '9007199254740993', '12345678901234567890', '9007199254740992']) {
      const text = GOLDEN.replace('"id": 0,', `"id": ${id},`);
      const d = CmdqDocument.parse(text).allDiagnostics().filter((x) => x.code === 'cmdq.invalid-value');
      assert.equal(d.length, 1, id);
      assert.equal(under(text, d[0]), id);
      assert.ok(d[0].message.startsWith(`id ${id} is beyond 2^53 − 1`), d[0].message);
    }
  });

  it('deps_before [9007199254740993, 1e300] gets one diagnostic per element, like 42 does', () => {
    const text = GOLDEN.replace('"deps_before": [3],', '"deps_before": [9007199254740993, 1e300, 42, 3],');
    const d = CmdqDocument.parse(text).allDiagnostics().filter((x) => x.range.start.line === 7);
    assert.deepEqual(d.map((x) => [x.code, under(text, x)]), [
      ['cmdq.invalid-value', '9007199254740993'], ['cmdq.invalid-value', '1e300'], ['cmdq.unknown-dep', '42'],
    ]);
    assert.match(d[0].message, /^deps_before names 9007199254740993, which is beyond 2\^53 − 1/);
  });

  it('2^53 − 1 itself is an ordinary id (an unknown dep, an id-mismatch)', () => {
    const text = GOLDEN.replace('"deps_before": [3],', '"deps_before": [9007199254740991, 3],');
    assert.deepEqual(CmdqDocument.parse(text).allDiagnostics().map((x) => x.code), ['cmdq.unknown-dep']);
  });
});

describe('cmdq: BOM and wording', () => {
  it('a UTF-8 BOM before the object is ignored, positions unchanged', () => {
    assert.deepEqual(CmdqDocument.parse(`\ufeff${GOLDEN}`).allDiagnostics(), []);
    const bad = GOLDEN.replace('"id": 2', '"id": 7');
    assert.deepEqual(CmdqDocument.parse(`\ufeff${bad}`).allDiagnostics(), CmdqDocument.parse(bad).allDiagnostics());
  });

  it('missing-end suggests JSON: ids only, and says which leaves have no id', () => {
    const text = queue(['{ "opcode": "DMA_STORE_TILE" }', entry(1), entry(2, '[1]')]);
    const [d] = CmdqDocument.parse(text).allDiagnostics().filter((x) => x.code === 'cmdq.missing-end');
    const json = /add (\{.*\}) as its last entry/.exec(d.message)![1];
    assert.deepEqual(JSON.parse(json), { opcode: 'END', deps_before: [2] });
    assert.match(d.message, /1 leaf has no id of its own to wait for/);
  });

  it('end-deps names two leaves sharing an id apart', () => {
    const text = queue([entry(0), entry(0), entry(2, '[]', 'END')]);
    const [d] = CmdqDocument.parse(text).allDiagnostics().filter((x) => x.code === 'cmdq.end-deps');
    assert.match(d.message, /END does not wait for entries 0, #1,/);
  });

  it('a list of 1M diagnostics is not built for a queue of 100k empty entries', () => {
    const text = queue(Array.from({ length: 100_000 }, () => '{}'));
    const doc = CmdqDocument.parse(text);
    const d = doc.diagnostics(defaultDiagnosticSettings);
    assert.equal(d.length, 1001);
    const scanned = doc.parsed.entries.filter((e) => e.ranges !== undefined).length;
    assert.ok(scanned <= 1000, `${scanned} entries scanned for ranges`);
    assert.equal([...d.slice(1)].sort(compareDiagnostics).length, 1000);
  });
});

describe('cmdq: deps_before past 100 problems in one entry (#29 item 12)', () => {
  it('the rest are said in one cmdq.deps-not-listed, and an error among them fails the run', () => {
    // 100 duplicates of 3 (warnings), then 50 unknown ids: before, the errors were neither shown nor counted.
    const deps = ['3', ...Array.from({ length: 100 }, () => '3'), ...Array.from({ length: 50 }, (_, i) => String(100 + i))].join(', ');
    const text = GOLDEN.replace('"deps_before": [3],', `"deps_before": [${deps}],`);
    const doc = CmdqDocument.parse(text);
    const all = doc.allDiagnostics();
    assert.equal(all.filter((x) => x.code === 'cmdq.duplicate-dep').length, 100);
    assert.equal(all.filter((x) => x.code === 'cmdq.unknown-dep').length, 0);
    const summary = all.filter((x) => x.code === 'cmdq.deps-not-listed');
    assert.equal(summary.length, 1);
    assert.equal(summary[0].severity, 'information');
    assert.equal(summary[0].message, '50 more problems in deps_before not listed (the first 100 of this entry are)');
    assert.equal(under(text, summary[0]).slice(0, 4), '[3, ');
    assert.equal(doc.capped(settings(1000)).hasError, true, 'the unlisted unknown ids are errors');
    // Turned off, they are neither counted nor an error.
    const off = doc.capped(settings(1000, { 'cmdq.unknown-dep': 'off' }));
    assert.equal(off.hasError, false);
    assert.ok(!off.diagnostics.some((x) => x.code === 'cmdq.deps-not-listed'));
  });

  it('schema problems past 100 in deps_before are summarised and counted too', () => {
    const deps = Array.from({ length: 130 }, () => 'true').join(', ');
    const text = GOLDEN.replace('"deps_before": [3],', `"deps_before": [${deps}, 3],`);
    const all = CmdqDocument.parse(text).allDiagnostics();
    assert.equal(all.filter((x) => x.code === 'cmdq.wrong-type').length, 100);
    assert.deepEqual(all.filter((x) => x.code === 'cmdq.deps-not-listed').map((x) => x.message), ['30 more problems in deps_before not listed (the first 100 of this entry are)']);
  });

  it('past the file cap the summary is counted like any problem', () => {
    const deps = Array.from({ length: 150 }, (_, i) => String(100 + i)).join(', ');
    const text = GOLDEN.replace('"deps_before": [4] }', `"deps_before": [4, ${deps}] }`);
    const r = CmdqDocument.parse(text).capped(settings(1));
    assert.equal(r.hasError, true);
    assert.match(r.diagnostics[0].message, /^100 further problems not shown/);
  });
});
