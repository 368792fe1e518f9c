import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { TYPE_RULES } from '../../../core/trace/fastRules';
import { flatRules, grammarAt, notFlat, tokenize, tokenizeLines } from '../package/flatGrammar';

const ROOT = resolve(__dirname, '../../..');
const grammar = grammarAt('syntaxes/npu-trace.tmLanguage.json');

describe('npu-trace grammar', () => {
  it('is flat, with no rule spanning lines (a line is an event)', () => {
    assert.equal(notFlat(grammar), undefined);
    assert.ok(flatRules(grammar).every((r) => r.match !== undefined));
  });

  it('colours every event type of the schemas by its kind, and only the event_type value', () => {
    const kinds = new Set<string>();
    for (const { name } of TYPE_RULES) {
      const tokens = tokenize(grammar, `{"event_type": "${name}", "name": "${name}"}`);
      const typed = tokens.filter(([, s]) => s.endsWith('.npu-trace'));
      assert.deepEqual(typed.map(([t]) => t), [name], name);
      kinds.add(typed[0][1]);
      assert.deepEqual(tokens.at(-1), [`"${name}"`, 'string.quoted.double.json'], name);
    }
    assert.ok(kinds.size >= 9, [...kinds].join(' '));
  });

  it('colours keys, ids and values as JSON; every line of the example trace gets its event type, every key of it a key token', () => {
    assert.deepEqual(tokenize(grammar, '{"event_type":"DMA_START","t_cycle":136,"cmd_id":1,"tx_id":"18446744073709551615","phase":"LN1","ok":true,"n":null,"x":[1,-2.5e3]}'), [
      ['"event_type"', 'support.type.property-name.json'], [':', 'punctuation.separator.json'], ['"', 'string.quoted.double.json'], ['DMA_START', 'support.type.dma.npu-trace'], ['"', 'string.quoted.double.json'],
      ['"t_cycle"', 'support.type.property-name.json'], [':', 'punctuation.separator.json'], ['136', 'constant.numeric.json'],
      ['"cmd_id"', 'support.type.property-name.id.npu-trace'], [':', 'punctuation.separator.json'], ['1', 'constant.numeric.json'],
      ['"tx_id"', 'support.type.property-name.id.npu-trace'], [':', 'punctuation.separator.json'], ['"18446744073709551615"', 'string.quoted.double.json'],
      ['"phase"', 'support.type.property-name.json'], [':', 'punctuation.separator.json'], ['"LN1"', 'string.quoted.double.json'],
      ['"ok"', 'support.type.property-name.json'], [':', 'punctuation.separator.json'], ['true', 'constant.language.json'],
      ['"n"', 'support.type.property-name.json'], [':', 'punctuation.separator.json'], ['null', 'constant.language.json'],
      ['"x"', 'support.type.property-name.json'], [':', 'punctuation.separator.json'], ['1', 'constant.numeric.json'], ['-2.5e3', 'constant.numeric.json'],
    ]);
    const text = readFileSync(join(ROOT, 'examples/llm-layer.trace.jsonl'), 'utf8').trimEnd();
    const lines = text.split('\n');
    const tokens = tokenizeLines(grammar, lines);
    // Each line's event type coloured once, and every key of every line a key token.
    assert.equal(tokens.filter(([, s]) => s.endsWith('.npu-trace') && !s.includes('.id.')).length, lines.length);
    const keysIn = (v: unknown): number => (typeof v !== 'object' || v === null ? 0 : Array.isArray(v) ? v.reduce((n: number, x) => n + keysIn(x), 0) : Object.entries(v).reduce((n, [, x]) => n + 1 + keysIn(x), 0));
    const keys = lines.reduce((n, l) => n + keysIn(JSON.parse(l)), 0);
    assert.equal(tokens.filter(([, s]) => s.startsWith('support.type.property-name')).length, keys);
  });
});
