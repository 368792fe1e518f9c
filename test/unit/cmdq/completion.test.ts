import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { completionsAt } from '../../../core/cmdq/completion';
import { CmdqDocument } from '../../../core/cmdq/document';

const GOLDEN = readFileSync(resolve(__dirname, '../../fixtures/cmdq/golden.cmdq.json'), 'utf8');
const labels = (text: string, offset: number) => completionsAt(CmdqDocument.parse(text), offset).map((c) => c.label);

describe('cmdq completion (core)', () => {
  it('inside deps_before: earlier ids, nearest first, without those already listed on either side', () => {
    const end = GOLDEN.indexOf('"deps_before": [4]') + 16;
    assert.deepEqual(labels(GOLDEN, end), ['3', '2', '1', '0']);
    assert.deepEqual(labels(GOLDEN, end + 1), ['4', '3', '2', '1', '0'], 'after "4": the typed number may be replaced by any');
    assert.deepEqual(labels(GOLDEN, GOLDEN.indexOf('"deps_before": [0, 1]') + 16), []);
    assert.deepEqual(labels(GOLDEN, GOLDEN.indexOf('"deps_before": [0, 1]') + 21), []);
  });

  it('an opcode replaces the whole quoted value', () => {
    const at = GOLDEN.indexOf('"VE_LAYERNORM_TILE"') + 4;
    const c = completionsAt(CmdqDocument.parse(GOLDEN), at).find((x) => x.label === 'VE_SOFTMAX_TILE')!;
    const out = GOLDEN.slice(0, c.replaceStart) + c.insertText + GOLDEN.slice(c.replaceEnd);
    assert.equal(out, GOLDEN.replace('"VE_LAYERNORM_TILE"', '"VE_SOFTMAX_TILE"'));
  });

  it('fields for an entry being typed, read from its text while it does not parse', () => {
    const typing = GOLDEN.replace('{ "opcode": "END",               "id": 5, "layer_id": null,       "deps_before": [4] }',
      '{ "opcode": "TE_GEMM_TILE", "id": 5, "layer_id": "x", "deps_before": [4], "m": 1, "');
    const got = labels(typing, typing.indexOf('"m": 1, "') + 9);
    assert.deepEqual(got.sort(), ['ifm_bank', 'k', 'n', 'ofm_bank', 'qbits_ifm', 'qbits_ofm', 'qbits_wgt', 'te_id', 'wgt_bank']);
  });
});
