import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { SERVED_LANGUAGES } from '../../../client/languages';
import pkg from '../../../package.json';
import { detectFormat } from '../../../core/detectFormat';
import { looksLikeInferscopeStart, topLevelInferscopeKind } from '../../../core/inferscope/detect';
import { InferscopeDocument } from '../../../core/inferscope/document';
import { faultyAnalysis, inferscopeTrace, pretty } from '../../gen/inferscopeGen';
import { flatRules, grammarAt, notFlat, tokenize, tokenizeLines } from '../package/flatGrammar';

const ROOT = resolve(__dirname, '../../..');

describe('InferScope recognition', () => {
  it('by name for the CLI, and by the first key of a compact .json', () => {
    assert.equal(detectFormat('x.inferscope.json', '{')?.id, 'inferscope');
    assert.equal(detectFormat('run.analysis.json', '{')?.id, 'inferscope');
    assert.equal(detectFormat('run.json', '{"format_version": "1.0", "events": []}')?.id, 'inferscope');
    assert.equal(detectFormat('run.json', '{"report_type":"json"}')?.id, 'inferscope');
    assert.equal(detectFormat('package.json', '{"name": "x"}'), undefined);
    assert.equal(looksLikeInferscopeStart('  { "analysis_version" : "1.0"'), true);
  });

  it('by top-level keys for the editor, nested keys and other JSON excluded', () => {
    assert.equal(topLevelInferscopeKind(pretty(inferscopeTrace({ requests: 1 }))), 'trace');
    assert.equal(topLevelInferscopeKind(faultyAnalysis()), 'analysis');
    assert.equal(topLevelInferscopeKind('{"title": "r", "report_type": "html"}'), 'report');
    assert.equal(topLevelInferscopeKind('{"format_version": "1"}'), undefined);
    assert.equal(topLevelInferscopeKind('{"x": {"format_version": "1", "events": []}}'), undefined);
    assert.equal(topLevelInferscopeKind('[{"analysis_version": "1"}]'), undefined);
    // The head of a big trace cut mid-event still says what it is.
    const head = pretty(inferscopeTrace({ requests: 3 })).slice(0, 3000);
    assert.equal(topLevelInferscopeKind(head), 'trace');
  });

  it('the document kind comes from the keys, else the name', () => {
    assert.equal(InferscopeDocument.parse(faultyAnalysis()).kind, 'analysis');
    assert.equal(InferscopeDocument.parse('{}', 'file:///a.analysis.json').kind, 'analysis');
    assert.equal(InferscopeDocument.parse('{}', 'file:///a.inferscope.json').kind, 'trace');
  });

  it('package.json contributes the language, grammar, schemas and settings', () => {
    const lang = pkg.contributes.languages.find((l) => l.id === 'inferscope');
    assert.ok(lang);
    assert.deepEqual(lang.extensions, ['.inferscope.json']);
    assert.ok(existsSync(join(ROOT, lang.configuration)));
    const g = pkg.contributes.grammars.find((x) => 'language' in x && x.language === 'inferscope')!;
    const grammar = grammarAt(g.path);
    assert.equal(notFlat(grammar), undefined);
    assert.ok(flatRules(grammar).every((r) => r.match !== undefined), 'no begin/end rule: no token of a trace spans lines');
    // Every event type of the example and of the real profiler's trace coloured by where it runs, and only those.
    for (const file of ['examples/llm-requests.inferscope.json', 'test/fixtures/real/inferscope/gpt2_trace.json']) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const types = [...text.matchAll(/"type": "(cpu_call|cpu_syscall|gpu_kernel|h2d_copy|d2h_copy|memory_event|instant)"/g)].map((m) => m[1]);
      assert.ok(types.length > 3, file);
      assert.deepEqual(tokenizeLines(grammar, text.split('\n')).filter(([, sc]) => sc.endsWith('.inferscope')).map(([t]) => t), types, file);
    }
    assert.deepEqual(tokenize(grammar, '"type": "gpu_kernel", "n": 1'), [
      ['"type"', 'support.type.property-name.json'], ['"gpu_kernel"', 'string.quoted.double.json'], ['gpu_kernel', 'entity.name.type.gpu.inferscope'],
      ['"n"', 'support.type.property-name.json'], ['1', 'constant.numeric.json'],
    ]);
    const urls = pkg.contributes.jsonValidation.map((j) => j.url);
    for (const u of ['./schemas/inferscope/trace.schema.json', './schemas/inferscope/analysis.schema.json']) {
      assert.ok(urls.includes(u), u);
      assert.ok(existsSync(join(ROOT, u)), u);
    }
    for (const t of ['cpu_call', 'cpu_syscall', 'gpu_kernel', 'h2d_copy', 'd2h_copy', 'memory_event', 'instant', 'event', 'scope', 'report']) {
      assert.ok(existsSync(join(ROOT, 'schemas/inferscope', `${t}.schema.json`)), t);
    }
    const props = pkg.contributes.configuration.properties as Record<string, { default?: unknown }>;
    assert.equal(props['npuTrace.inferscope.detectInJson'].default, true);
    assert.equal(props['npuTrace.diagnostics.inferscopeKernelOverlap'].default, 'stream');
    assert.ok(SERVED_LANGUAGES.includes('inferscope'));
    assert.ok(pkg.contributes.commands.some((c) => c.command === 'npuTrace.inferscope.analyzeTrace' && c.title === 'Analyze Trace'));
    assert.match(readFileSync(join(ROOT, 'client/inferscope/analyzeCommand.ts'), 'utf8'), /ANALYZE_TRACE = 'npuTrace\.inferscope\.analyzeTrace'/);
  });

  it('the whole-file schema accepts the generated trace (what VS Code validates with jsonValidation)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const f of ['event', 'cpu_call', 'cpu_syscall', 'gpu_kernel', 'h2d_copy', 'd2h_copy', 'memory_event', 'instant', 'scope', 'trace_metadata', 'system_info']) {
      ajv.addSchema(JSON.parse(readFileSync(join(ROOT, 'schemas/inferscope', `${f}.schema.json`), 'utf8')), `${f}.schema.json`);
    }
    const whole = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas/inferscope/trace.schema.json'), 'utf8')));
    const t = inferscopeTrace({ requests: 2 });
    assert.equal(whole(t), true, JSON.stringify(whole.errors));
    (t.events as Record<string, unknown>[])[4].metadata = { device_id: 'zero' };
    assert.equal(whole(t), false);
  });
});
