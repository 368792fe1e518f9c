import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { CmdqDocument } from '../../../core/cmdq/document';
import { fixesFor } from '../../../core/cmdq/fixes';

const FIX = resolve(__dirname, '../../fixtures/cmdq');
const read = (name: string) => readFileSync(resolve(FIX, `${name}.cmdq.json`), 'utf8');
const GOLDEN = read('golden');

/** Applies the first fix offered for the first diagnostic with `code`; returns the new text. */
function fix(text: string, code: string, title?: RegExp): string {
  const doc = CmdqDocument.parse(text);
  const d = doc.allDiagnostics().find((x) => x.code === code);
  assert.ok(d, `no ${code}`);
  const fixes = fixesFor(doc, code, doc.offsetAt(d.range.start));
  const f = title ? fixes.find((x) => title.test(x.title)) : fixes[0];
  assert.ok(f, `no fix for ${code}: ${fixes.map((x) => x.title).join(', ')}`);
  let out = text;
  for (const e of [...f.edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

describe('cmdq quick fixes (core)', () => {
  it('each fixture with a fix comes back to the golden CMDQ', () => {
    assert.equal(fix(read('self-dep'), 'cmdq.self-dep'), GOLDEN);
    assert.equal(fix(read('duplicate-dep'), 'cmdq.duplicate-dep'), GOLDEN);
    assert.equal(fix(read('unknown-dep'), 'cmdq.unknown-dep'), GOLDEN);
    assert.equal(fix(read('unknown-opcode'), 'cmdq.unknown-opcode'), GOLDEN);
    assert.equal(fix(read('end-deps'), 'cmdq.end-deps'), GOLDEN.replace('"deps_before": [4] }', '"deps_before": [3, 4] }'));
  });

  it('an id past 2^53 is renumbered; a dep past 2^53 is removed', () => {
    assert.equal(fix(GOLDEN.replace('"id": 3,', '"id": 1e300,'), 'cmdq.invalid-value', /Renumber/), GOLDEN);
    assert.equal(fix(GOLDEN.replace('"deps_before": [3]', '"deps_before": [9007199254740993, 3]'), 'cmdq.invalid-value', /Remove dependency/), GOLDEN);
    // A 300-digit dep: the title quotes it cut, on one short line.
    const long = GOLDEN.replace('"deps_before": [3]', `"deps_before": [${'9'.repeat(300)}, 3]`);
    const doc = CmdqDocument.parse(long);
    const d = doc.allDiagnostics().find((x) => x.code === 'cmdq.invalid-value')!;
    const [f] = fixesFor(doc, d.code, doc.offsetAt(d.range.start));
    assert.ok(f.title.length < 80, f.title);
  });

  it('removing the first, a middle or the only dependency keeps the list well-formed', () => {
    const three = GOLDEN.replace('"deps_before": [0, 1]', '"deps_before": [2, 0, 1]');
    assert.equal(fix(three, 'cmdq.self-dep'), GOLDEN);
    const mid = GOLDEN.replace('"deps_before": [0, 1]', '"deps_before": [0, 2, 1]');
    assert.equal(fix(mid, 'cmdq.self-dep'), GOLDEN);
    const only = GOLDEN.replace('"deps_before": [],     "tensor_role": "ifm"', '"deps_before": [0],     "tensor_role": "ifm"');
    assert.equal(fix(only, 'cmdq.self-dep'), GOLDEN);
  });

  it('renumbering after an inserted entry shifts ids and the deps that name them, and nothing else', () => {
    const lines = GOLDEN.split('\n');
    // A copy of entry 1 inserted after it, keeping id 1: ids 1, 2.. now sit one slot late.
    lines.splice(5, 0, lines[4]);
    const text = lines.join('\n');
    const fixed = fix(text, 'cmdq.id-mismatch', /Renumber/);
    const doc = CmdqDocument.parse(fixed);
    assert.deepEqual(doc.parsed.entries.map((e) => e.id), [0, 1, 2, 3, 4, 5, 6]);
    // Deps followed their entries: the GEMM (now 3) waits for 0 and the first copy (1); END waits for the store (5).
    assert.deepEqual(doc.parsed.entries.map((e) => e.deps), [[], [], [], [0, 1], [3], [4], [5]]);
    assert.equal(fixed.replace(/\d+/g, '#'), text.replace(/\d+/g, '#'), 'only numbers changed');
  });

  it('a missing END on an empty queue and after a one-line queue', () => {
    assert.equal(fix('{ "cmdq": [] }', 'cmdq.missing-end'), '{ "cmdq": [{ "opcode": "END", "id": 0, "layer_id": null, "deps_before": [] }] }');
    const one = '{"cmdq": [{"opcode": "VE_ADD_TILE", "id": 0, "layer_id": "a", "deps_before": [], "ve_id": 0, "length": 1, "qbits_activation": 8}]}';
    const out = fix(one, 'cmdq.missing-end');
    assert.equal(out, one.replace('8}]}', '8}, { "opcode": "END", "id": 1, "layer_id": null, "deps_before": [0] }]}'));
    assert.deepEqual(CmdqDocument.parse(out).allDiagnostics(), []);
  });
});
