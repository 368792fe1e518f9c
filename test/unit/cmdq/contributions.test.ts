import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { SERVED_LANGUAGES } from '../../../client/languages';
import pkg from '../../../package.json';

const ROOT = resolve(__dirname, '../../..');
const json = (p: string) => JSON.parse(readFileSync(join(ROOT, p), 'utf8')) as Record<string, unknown>;

interface Rule { match?: string; include?: string; captures?: Record<string, { name: string }> }

describe('cmdq contributions in package.json', () => {
  const lang = pkg.contributes.languages.find((l) => l.id === 'cmdq');
  const grammar = pkg.contributes.grammars.find((g) => 'language' in g && g.language === 'cmdq');
  const injection = pkg.contributes.grammars.find((g) => 'injectTo' in g && (g.injectTo as string[]).includes('source.cmdq'));

  it('the language claims *.cmdq.json and *.cmdq.jsonc with a configuration that exists', () => {
    assert.ok(lang);
    assert.deepEqual(lang.extensions, ['.cmdq.json', '.cmdq.jsonc']);
    const conf = json(lang.configuration);
    assert.deepEqual(conf.comments, { lineComment: '//', blockComment: ['/*', '*/'] });
  });

  it('the grammar builds on source.json and colours every opcode of the golden CMDQ by engine', () => {
    assert.ok(grammar && injection);
    const g = json(grammar.path) as { scopeName: string; patterns: Rule[]; repository: { cmdq: { patterns: Rule[] } } };
    assert.equal(g.scopeName, grammar.scopeName);
    assert.ok(g.patterns.some((p) => p.include === 'source.json'));
    const inj = json(injection.path) as { scopeName: string; injectionSelector: string };
    assert.equal(inj.scopeName, injection.scopeName);
    assert.match(inj.injectionSelector, /source\.cmdq/);
    const rules = g.repository.cmdq.patterns.map((r) => ({ re: new RegExp(r.match!), scope: r.captures!['1'].name }));
    const scopeOf = (s: string) => rules.find((r) => r.re.test(s))?.scope;
    assert.match(scopeOf('"DMA_LOAD_TILE"')!, /dma/);
    assert.match(scopeOf('"DMA_STORE_TILE"')!, /dma/);
    assert.match(scopeOf('"TE_GEMM_TILE"')!, /\.te\./);
    assert.match(scopeOf('"VE_LAYERNORM_TILE"')!, /\.ve\./);
    assert.match(scopeOf('"END"')!, /end/);
    assert.equal(scopeOf('"ENDING"'), undefined);
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
