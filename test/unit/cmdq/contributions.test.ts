import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { SERVED_LANGUAGES } from '../../../client/languages';
import pkg from '../../../package.json';
import { grammarAt, notFlat, tokenize, tokenizeLines } from '../package/flatGrammar';

const ROOT = resolve(__dirname, '../../..');
const json = (p: string) => JSON.parse(readFileSync(join(ROOT, p), 'utf8')) as Record<string, unknown>;

describe('cmdq contributions in package.json', () => {
  const lang = pkg.contributes.languages.find((l) => l.id === 'cmdq');
  const grammar = pkg.contributes.grammars.find((g) => 'language' in g && g.language === 'cmdq');

  it('the language claims *.cmdq.json and *.cmdq.jsonc with a configuration that exists', () => {
    assert.ok(lang);
    assert.deepEqual(lang.extensions, ['.cmdq.json', '.cmdq.jsonc']);
    const conf = json(lang.configuration);
    assert.deepEqual(conf.comments, { lineComment: '//', blockComment: ['/*', '*/'] });
  });

  it('the grammar is flat and colours every opcode of the golden CMDQ by engine, keys, values and comments as JSON', () => {
    assert.ok(grammar);
    const g = grammarAt(grammar.path);
    assert.equal(g.scopeName, grammar.scopeName);
    assert.equal(notFlat(g), undefined);
    // Nothing injects into it: a flat grammar has no nested scope an injection would be needed in.
    assert.ok(!pkg.contributes.grammars.some((x) => 'injectTo' in x));
    const scopeOf = (s: string) => tokenize(g, s).find(([t]) => !t.startsWith('"'))?.[1];
    assert.match(scopeOf('"DMA_LOAD_TILE"')!, /dma/);
    assert.match(scopeOf('"DMA_STORE_TILE"')!, /dma/);
    assert.match(scopeOf('"TE_GEMM_TILE"')!, /\.te\./);
    assert.match(scopeOf('"VE_LAYERNORM_TILE"')!, /\.ve\./);
    assert.match(scopeOf('"END"')!, /end/);
    assert.deepEqual(tokenize(g, '"ENDING"'), [['"ENDING"', 'string.quoted.double.json']]);
    const golden = readFileSync(join(ROOT, 'test/fixtures/cmdq/golden.cmdq.json'), 'utf8');
    const tokens = tokenizeLines(g, golden.split('\n'));
    const opcodes = [...golden.matchAll(/"opcode"\s*:\s*"([^"]*)"/g)].map((m) => m[1]);
    assert.ok(opcodes.length > 3);
    const coloured = tokens.filter(([, s]) => s.endsWith('.cmdq') && !s.includes('deps')).map(([t]) => t);
    assert.deepEqual(coloured, opcodes);
    assert.ok(tokens.some(([t, s]) => t === 'deps_before' && s === 'variable.other.deps.cmdq'));
    assert.deepEqual(tokenize(g, '  "id": 3, "x": -1.5e2, "ok": true, "n": null, "s": "a \\" // b" // note'), [
      ['"id"', 'support.type.property-name.json'], ['3', 'constant.numeric.json'],
      ['"x"', 'support.type.property-name.json'], ['-1.5e2', 'constant.numeric.json'],
      ['"ok"', 'support.type.property-name.json'], ['true', 'constant.language.json'],
      ['"n"', 'support.type.property-name.json'], ['null', 'constant.language.json'],
      ['"s"', 'support.type.property-name.json'], ['"a \\" // b"', 'string.quoted.double.json'],
      ['// note', 'comment.line.double-slash.json'],
    ]);
    assert.deepEqual(tokenizeLines(g, ['{ /* a "q" ', ' b */ "id": 1 }']), [
      ['/*', 'comment.block.json'], [' a "q" ', 'comment.block.json'], [' b */', 'comment.block.json'],
      ['"id"', 'support.type.property-name.json'], ['1', 'constant.numeric.json'],
    ]);
  });

  it('the client serves the language and the setting for JSON detection is declared', () => {
    assert.ok(SERVED_LANGUAGES.includes('cmdq'));
    assert.equal(pkg.contributes.configuration.properties['npuTrace.cmdq.detectInJson'].default, true);
    assert.ok(pkg.activationEvents.includes('onLanguage:json'));
    for (const s of ['common', 'metadata', 'DMA_LOAD_TILE', 'DMA_STORE_TILE', 'TE_GEMM_TILE', 'VE_TILE', 'END', 'cmdq']) {
      assert.ok(existsSync(join(ROOT, 'schemas/cmdq', `${s}.schema.json`)), s);
    }
  });
});
