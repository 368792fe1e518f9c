import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pkg from '../../../package.json';
import { flatRules, grammarAt, notFlat, tokenize } from './flatGrammar';

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

  it('start a string only at a quote no backslash precedes: a line of escaped quotes is read once, not once per quote', () => {
    // Without the guard each escaped quote of an unclosed string starts a new search to the end of
    // the line: 5 lines of 9000 took VS Code's tokenizer 8-12 s (npm run bench -- grammars).
    const body = String.raw`(?:[^"\\]|\\.)*`;
    for (const g of grammars) {
      for (const r of flatRules(g.grammar)) {
        const re = r.match ?? r.begin!;
        for (let at = re.indexOf(body); at >= 0; at = re.indexOf(body, at + 1)) assert.equal(re.slice(at - 8, at), String.raw`(?<!\\)"`, `${g.path}: ${re}`);
      }
    }
    const hostile = String.raw`{"k": "` + '\\"'.repeat(2000);
    for (const g of grammars.filter((x) => x.grammar.repository?.json)) {
      assert.deepEqual(tokenize(g.grammar, hostile).filter(([, scope]) => !scope.startsWith('punctuation.')), [['"k"', 'support.type.property-name.json']], g.path);
    }
  });
});

