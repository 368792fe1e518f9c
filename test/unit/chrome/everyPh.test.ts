// One fixture holding every `ph` of the Trace Event Format, well formed: no diagnostic, the timeline
// it draws, and the colours the chrome-trace grammar gives each phase.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ChromeChecker } from '../../../core/chrome/checks';
import { KNOWN_PH } from '../../../core/chrome/event';
import { buildTimeline } from '../../../core/detectFormat';
import { flatRules, grammarAt, notFlat, tokenize as tokenizeOne } from '../package/flatGrammar';

const ROOT = join(__dirname, '..', '..', '..');
const FILE = join(ROOT, 'test/fixtures/chrome/every-ph.trace.json');
const text = readFileSync(FILE, 'utf8');
const lines = text.split('\n');
const events = (JSON.parse(text) as { traceEvents: { ph: string; cat?: string }[] }).traceEvents;

const grammar = grammarAt('syntaxes/chrome-trace.tmLanguage.json');
const tokenize = (line: string) => tokenizeOne(grammar, line);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { languages: { id: string; configuration: string }[]; grammars: { language?: string; path: string }[] } };

/** The scope the grammar gives the phase letter of a line. */
function phaseScope(line: string): string | undefined {
  return tokenize(line).find(([, scope]) => scope.endsWith('.chrome-trace') && !scope.includes('.category.'))?.[1];
}

describe('every-ph fixture', () => {
  it('holds every ph the format knows, and nothing else', () => {
    assert.deepEqual([...new Set(events.map((e) => e.ph))].sort(), [...KNOWN_PH].sort());
  });

  it('gets no diagnostic', () => {
    const c = new ChromeChecker();
    lines.forEach((l, i) => c.add(l, i));
    assert.deepEqual(c.finish().map((d) => `${d.range.start.line} ${d.code}`), []);
  });

  it('draws slices, instants, the async slice and the counter; object, sample and context events draw nothing', () => {
    const m = buildTimeline('every-ph.trace.json', lines)!;
    const items = [...m.items.start].map((s, i) => `${m.strings[m.items.name[i]]} ${s}-${m.items.end[i]} line ${m.items.line[i] + 1}`);
    assert.deepEqual(items.sort(), ['gemm 7-9 line 19', 'inner 1-3 line 5', 'launch 6-7 line 15', 'legacy-tick 4-4 line 8', 'mark 5-5 line 9',
      'outer 0-10 line 4', 'req 1-8 line 12', 'req-step 2-2 line 13', 'tick 3-3 line 7']);
    assert.deepEqual(m.counters.map((c) => `${c.name} ${c.unit} ${c.values[0]}`), ['mem bytes 100']);
    assert.equal(m.undrawable, 0);
  });
});

describe('chrome-trace grammar and language configuration', () => {
  it('is the chrome-trace language\'s own, not another format\'s', () => {
    const lang = pkg.contributes.languages.find((l) => l.id === 'chrome-trace')!;
    assert.equal(lang.configuration, './syntaxes/chrome-trace.language-configuration.json');
    assert.ok(JSON.parse(readFileSync(join(ROOT, lang.configuration), 'utf8')));
    assert.equal(pkg.contributes.grammars.find((g) => g.language === 'chrome-trace')?.path, './syntaxes/chrome-trace.tmLanguage.json');
    assert.equal(grammar.scopeName, 'source.chrome-trace');
  });

  it('colours each phase letter by its kind, on every line of the fixture', () => {
    const kind: Record<string, string> = { B: 'slice', E: 'slice', X: 'slice', i: 'instant', I: 'instant', R: 'instant', n: 'instant', C: 'counter', b: 'async', e: 'async', s: 'flow', t: 'flow', f: 'flow', M: 'metadata' };
    let seen = 0;
    for (const line of lines) {
      const ph = /"ph": "([^"]*)"/.exec(line)?.[1];
      if (ph === undefined) continue;
      seen++;
      const scope = phaseScope(line);
      assert.ok(scope, line);
      assert.equal(scope.split('.').slice(-2, -1)[0], kind[ph] ?? 'phase', `${ph}: ${scope}`);
    }
    assert.equal(seen, events.length);
  });

  it('is flat: every rule a match of its own (a line is tokenized alone; nested begin/end rules made a big trace costly to tokenize)', () => {
    assert.equal(notFlat(grammar), undefined);
    assert.ok(flatRules(grammar).every((r) => r.match !== undefined), 'no begin/end rule: no token of a trace spans lines');
  });

  it('colours keys, strings, numbers and constants as JSON, a phase letter and a category by their kind', () => {
    const line = String.raw`  "name": "aten::mm \"x\" {y}", "ph": "X", "cat": "kernel", "ts": 1.5e3, "dur": -2, "ok": true, "args": null, "n": "12"`;
    assert.deepEqual(tokenize(line), [
      ['"name"', 'support.type.property-name.json'], [String.raw`"aten::mm \"x\" {y}"`, 'string.quoted.double.json'],
      ['"ph"', 'support.type.property-name.json'], ['X', 'keyword.control.slice.chrome-trace'],
      ['"cat"', 'support.type.property-name.json'], ['kernel', 'entity.name.type.category.chrome-trace'],
      ['"ts"', 'support.type.property-name.json'], ['1.5e3', 'constant.numeric.json'],
      ['"dur"', 'support.type.property-name.json'], ['-2', 'constant.numeric.json'],
      ['"ok"', 'support.type.property-name.json'], ['true', 'constant.language.json'],
      ['"args"', 'support.type.property-name.json'], ['null', 'constant.language.json'],
      ['"n"', 'support.type.property-name.json'], ['"12"', 'string.quoted.double.json'],
    ]);
    // Every line of the fixture: each string token is a whole string, from its quote to its closing one.
    for (const l of lines) for (const [text, scope] of tokenize(l)) if (scope === 'string.quoted.double.json') assert.ok(text.startsWith('"') && text.endsWith('"'), l);
  });

  it('marks the PyTorch profiler categories', () => {
    for (const c of ['cpu_op', 'kernel', 'cuda_runtime', 'gpu_memcpy', 'ac2g', 'python_function']) assert.deepEqual(tokenize(`"cat": "${c}"`), [['"cat"', 'support.type.property-name.json'], [c, 'entity.name.type.category.chrome-trace']]);
    assert.deepEqual(tokenize('"cat": "kernels"'), [['"cat"', 'support.type.property-name.json'], ['"kernels"', 'string.quoted.double.json']]);
  });
});
