import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Diagnostic } from '../../../core/common/diagnostic';
import { analyze, type Analysis } from '../../../core/nnapi/analysis';
import { SystraceStream } from '../../../core/nnapi/collect';
import { summarize, summaryJson, summaryText } from '../../../core/nnapi/summary';
import { readPerfettoBytes } from '../../../core/perfetto/file';
import { systraceToPerfetto } from '../../gen/perfettoGen';
import { benchmarkTrace } from '../nnapi/traces';

const FIXTURES = 'test/fixtures/nnapi';
const texts: [string, string][] = [
  ...readdirSync(FIXTURES).filter((f) => statSync(join(FIXTURES, f)).isFile()).map((f) => [f, readFileSync(join(FIXTURES, f), 'utf8')] as [string, string]),
  ...readdirSync('examples').filter((f) => /\.systrace$/.test(f)).map((f) => [`examples/${f}`, readFileSync(join('examples', f), 'utf8')] as [string, string]),
  ['benchmarkTrace()', benchmarkTrace()],
  // Rows of two threads interleaved, an E with no B, a PU scope with no phase: the rules' other codes.
  ['mixed', [
    '# tracer: nop',
    '  NeuralNetworks-100  (  100) [001] ...1   100.000000: tracing_mark_write: B|100|[NN_LA_PO]m',
    '  NeuralNetworks-100  (  100) [001] ...1   100.000500: tracing_mark_write: E',
    '  NeuralNetworks-100  (  100) [001] ...1   100.001000: tracing_mark_write: E',
    '  worker-101  (  100) [001] ...1   100.002000: tracing_mark_write: B|100|[NN_LU_PU]helper',
    '  worker-101  (  100) [001] ...1   100.003000: tracing_mark_write: B|100|[NN_LQ_PP]odd',
    '  worker-101  (  100) [001] ...1   100.004000: tracing_mark_write: E|100',
    '  worker-101  (  100) [001] ...1   100.005000: tracing_mark_write: B|100|[NN_LR_PC]',
    '  worker-101  (  -----) [001] ...1   100.006000: tracing_mark_write: B|100|[NN_LR_PC]open',
  ].join('\n')],
];

function textAnalysis(text: string): Analysis {
  const s = new SystraceStream();
  text.split(/\r?\n/).forEach((l, i) => s.line(l, i));
  return analyze(s.collector);
}

/** Code, severity and message, with the position a message names (a line, a byte) left out. */
function shape(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => `${d.code} ${d.severity} ${d.message.replace(/, (line|byte) \d+\)/g, ', <pos>)')}`).sort();
}

describe('perfetto: the NNAPI rules read a protobuf trace as its text systrace', () => {
  for (const [name, text] of texts) {
    it(`${name}: same diagnostics, same nnapi-stats summary and --json`, () => {
      const want = textAnalysis(text);
      const got = readPerfettoBytes(systraceToPerfetto(text), undefined, { nnapi: true });
      assert.ok(got.nnapi, 'analysed');
      // The protobuf's own findings are only the unbalanced B/E the NNAPI rules also report.
      assert.deepEqual(got.diagnostics.filter((d) => !d.code.startsWith('nnapi.') && !/unmatched-end|unclosed-slice/.test(d.code)).map((d) => d.code), []);
      assert.deepEqual(shape(got.nnapi.diagnostics), shape(want.diagnostics));
      assert.ok(want.runs.length > 0);
      for (const opts of [{}, { totalTimes: true }, { perExecution: true }, { totalTimes: true, perExecution: true }]) {
        assert.equal(summaryJson(got.nnapi, opts), summaryJson(want, opts), `--json ${JSON.stringify(opts)}`);
        assert.equal(summaryText(summarize(got.nnapi, opts)), summaryText(summarize(want, opts)));
      }
    });
  }

  it('places an NNAPI diagnostic at line 0, the byte offset of its mark in the file', () => {
    const text = texts.find(([n]) => n === 'mixed')![1];
    const bytes = systraceToPerfetto(text);
    const got = readPerfettoBytes(bytes, undefined, { nnapi: true });
    const d = got.nnapi!.diagnostics.find((x) => x.code === 'nnapi.unknown-tag')!;
    assert.equal(d.range.start.line, 0);
    const at = d.range.start.character;
    // The tag's bytes are where the diagnostic points (the mark is ASCII: characters are bytes).
    assert.equal(new TextDecoder().decode(bytes.subarray(at, at + 11)), '[NN_LQ_PP]o');
  });

  it('feeds marks in time order when ftrace bundles of several CPUs interleave', () => {
    const text = texts.find(([n]) => n === 'benchmark.systrace')![1];
    const lines = text.split('\n');
    const head = lines.filter((l) => l.startsWith('#'));
    const rows = lines.filter((l) => !l.startsWith('#') && l.trim());
    // The same rows as two CPUs' bundles: odd rows first, then even ones.
    const shuffled = [...head, ...rows.filter((_, i) => i % 2), ...rows.filter((_, i) => !(i % 2))].join('\n');
    const got = readPerfettoBytes(systraceToPerfetto(shuffled), undefined, { nnapi: true });
    assert.equal(summaryJson(got.nnapi!, {}), summaryJson(textAnalysis(text), {}));
  });
});
