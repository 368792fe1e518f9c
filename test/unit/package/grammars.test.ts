import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pkg from '../../../package.json';
import { grammarAt, notFlat, tokenize } from './flatGrammar';

describe('grammars', () => {
  const grammars = pkg.contributes.grammars.map((g) => ({ ...g, grammar: grammarAt(g.path) }));

  it('are flat, every one: VS Code tokenizes every line of a file up to 20 MB as soon as it is open', () => {
    assert.ok(grammars.length >= 5);
    for (const g of grammars) {
      assert.equal(g.grammar.scopeName, g.scopeName, g.path);
      assert.equal(notFlat(g.grammar), undefined, g.path);
    }
  });

  it('read JSON alike, each format\'s own colours apart', () => {
    const line = String.raw`  "name": "a \"b\" // {c}", "n": -1.5e3, "ok": true, "none": null, "list": [1, "x"], "nested": {`;
    const json = grammars.filter((g) => ['chrome-trace', 'cmdq', 'inferscope'].includes(g.language ?? ''));
    assert.equal(json.length, 3);
    for (const g of json) {
      assert.deepEqual(tokenize(g.grammar, line), [
        ['"name"', 'support.type.property-name.json'], [String.raw`"a \"b\" // {c}"`, 'string.quoted.double.json'],
        ['"n"', 'support.type.property-name.json'], ['-1.5e3', 'constant.numeric.json'],
        ['"ok"', 'support.type.property-name.json'], ['true', 'constant.language.json'],
        ['"none"', 'support.type.property-name.json'], ['null', 'constant.language.json'],
        ['"list"', 'support.type.property-name.json'], ['1', 'constant.numeric.json'], ['"x"', 'string.quoted.double.json'],
        ['"nested"', 'support.type.property-name.json'],
      ], g.path);
    }
  });
});
