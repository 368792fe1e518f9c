// Number tokens of a CMDQ mutated into what JSON writers and hand edits produce: 1e300, -0, 2^53 + 1,
// 20 digits, NaN-like words, fractions, huge exponents. Nothing throws, every range lies in the
// document, and every id or deps_before element that is a number but not a safe non-negative
// integer gets a diagnostic on exactly its token (it cannot silently name no entry).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CmdqDocument } from '../../core/cmdq/document';
import { entryHover } from '../../core/cmdq/summary';
import { tokenAt } from '../../core/cmdq/navigation';
import { fixesFor } from '../../core/cmdq/fixes';

const NUMBERS = [
  '1e300', '-1e300', '1E+400', '-0', '0.0', '-0.0', '9007199254740991', '9007199254740992', '9007199254740993', '12345678901234567890',
  '99999999999999999999999', '1.5', '0.5e1', '1e-7', '2e0', '-1', '1e21', '4.0', '123456789012345678901234567890e-10',
  'NaN', 'Infinity', '-Infinity', '0x10', '01', '1.', '.5', '+1', '1e', '--1',
];
const token = fc.oneof({ weight: 3, arbitrary: fc.nat({ max: 8 }).map(String) }, { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) });

interface Slot {
  kind: 'id' | 'dep' | 'field';
  start: number;
  end: number;
  text: string;
}

/** A queue in the §4.4 layout whose number tokens are drawn from `token`, with where each one is. */
const queue = fc.array(fc.record({
  op: fc.constantFrom('DMA_LOAD_TILE', 'TE_GEMM_TILE', 'VE_ADD_TILE', 'END'),
  id: token, deps: fc.array(token, { maxLength: 4 }), bank: token, size: token,
}), { minLength: 1, maxLength: 8 }).map((es) => {
  let text = '{\n  "cmdq": [\n';
  const slots: Slot[] = [];
  const put = (kind: Slot['kind'], t: string) => {
    slots.push({ kind, start: text.length, end: text.length + t.length, text: t });
    text += t;
  };
  es.forEach((e, i) => {
    text += `    { "opcode": "${e.op}", "id": `;
    put('id', e.id);
    text += ', "layer_id": "l", "deps_before": [';
    e.deps.forEach((d, k) => {
      if (k) text += ', ';
      put('dep', d);
    });
    text += ']';
    if (e.op === 'DMA_LOAD_TILE') {
      text += ', "tensor_role": "ifm", "qbits": 8, "dram_addr": 0, "spm_bank": ';
      put('field', e.bank);
      text += ', "spm_offset": 0, "num_elements": ';
      put('field', e.size);
    } else if (e.op === 'TE_GEMM_TILE') {
      text += ', "te_id": 0, "ifm_bank": ';
      put('field', e.bank);
      text += ', "wgt_bank": 1, "ofm_bank": 2, "m": ';
      put('field', e.size);
      text += ', "n": 1, "k": 1';
    } else if (e.op === 'VE_ADD_TILE') {
      text += ', "ve_id": 0, "length": ';
      put('field', e.size);
      text += ', "qbits_activation": 8';
    }
    text += ` }${i < es.length - 1 ? ',' : ''}\n`;
  });
  return { text: `${text}  ]\n}\n`, slots };
});

function parses(t: string): unknown {
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

describe('cmdq number fuzz', () => {
  it('ids, deps and fields with hostile numbers: no throw, ranges in the document, every unsafe id named', () => {
    fc.assert(fc.property(queue, ({ text, slots }) => {
      const doc = CmdqDocument.parse(text);
      const all = doc.allDiagnostics();
      const lines = text.split('\n');
      for (const d of all) {
        for (const r of [d.range, ...(d.related ?? []).map((x) => x.range)]) {
          for (const p of [r.start, r.end]) assert.ok(p.line >= 0 && p.line < lines.length && p.character >= 0 && p.character <= lines[p.line].length, `${d.code} ${JSON.stringify(r)}`);
        }
        assert.ok(!/undefined|\[object/.test(d.message) && (d.code === 'cmdq.invalid-json' || !/NaN/.test(d.message)), d.message);
      }
      const json = parses(text);
      if (json === undefined) {
        assert.ok(all.some((d) => d.code === 'cmdq.invalid-json'), 'a token JSON rejects is reported');
      } else {
        const starts = new Set(all.map((d) => `${doc.offsetAt(d.range.start)}:${doc.offsetAt(d.range.end)}`));
        for (const s of slots) {
          if (s.kind === 'field') continue;
          const v = JSON.parse(s.text) as number;
          if (Number.isSafeInteger(v) && v >= 0) continue;
          assert.ok(starts.has(`${s.start}:${s.end}`), `${s.kind} ${s.text} has no diagnostic on its token:\n${text}\n${JSON.stringify(all.map((d) => [d.code, d.message]))}`);
        }
      }
      for (const s of slots) {
        const t = tokenAt(doc, s.start);
        if (t && t.target >= 0) assert.ok(!/undefined|NaN/.test(entryHover(doc, t.target)));
      }
      for (const d of all) {
        for (const f of fixesFor(doc, d.code, doc.offsetAt(d.range.start))) {
          for (const e of f.edits) assert.ok(e.start >= 0 && e.start <= e.end && e.end <= text.length);
        }
      }
    }), { numRuns: 400 });
  });
});
