import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pkg from '../../../package.json';
import { grammarAt, notFlat } from './flatGrammar';

describe('grammars', () => {
  const grammars = pkg.contributes.grammars.map((g) => ({ ...g, grammar: grammarAt(g.path) }));

  it('are flat, every one: VS Code tokenizes every line of a file up to 20 MB as soon as it is open', () => {
    assert.ok(grammars.length >= 5);
    for (const g of grammars) {
      assert.equal(g.grammar.scopeName, g.scopeName, g.path);
      assert.equal(notFlat(g.grammar), undefined, g.path);
    }
  });

  it('read JSON with one set of rules, the same in each format that has them', () => {
    const json = grammars.flatMap((g) => (g.grammar.repository?.json ? [{ path: g.path, rules: JSON.stringify(g.grammar.repository.json) }] : []));
    assert.deepEqual(json.map((j) => j.path).sort(), ['./syntaxes/chrome-trace.tmLanguage.json', './syntaxes/cmdq.tmLanguage.json', './syntaxes/inferscope.tmLanguage.json']);
    for (const j of json) assert.equal(j.rules, json[0].rules, j.path);
  });
});
