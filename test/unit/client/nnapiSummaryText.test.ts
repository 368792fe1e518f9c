import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { renderSummary } from '../../../client/nnapi/summaryText';
import { NnapiDocument } from '../../../core/nnapi/document';
import { nnapiSummary } from '../../../server/nnapi/summaryRequest';

const fixture = (n: string) => readFileSync(resolve(__dirname, '../../fixtures/nnapi', n), 'utf8');

/** What the command shows: the server's answer (through JSON, as on the wire) rendered by the client. */
function shown(file: string): string {
  const result = JSON.parse(JSON.stringify(nnapiSummary(NnapiDocument.parse(fixture(file)), `file:///${file}`)));
  return renderSummary(result, file);
}

describe('NNAPI: Show Timing Summary document', () => {
  it('shows each run in the four views with the numbers of the reference tables', () => {
    const text = shown('benchmark.systrace');
    assert.match(text, /^NNAPI timing summary — benchmark\.systrace/);
    assert.match(text, /Run 1: B\|100\|\[NN_LA_PO\]bench_model {3}\(line 5\)/);
    assert.match(text, /Executions: 0 overall; warm-up 1, benchmark 2/);
    for (const v of ['self-times, all phases', 'total times, all phases', 'self-times, per execution (benchmark phase)', 'total times, per execution (benchmark phase)']) {
      assert.ok(text.includes(`[${v}]`), v);
    }
    assert.match(text, /Run 2: B\|100\|\[NN_LA_PO\]second/);
    // Per-execution total view of run 1: benchmark LR PE 11 / 2 executions = 5.50, 64.71 % of 17.
    const perExecTotal = text.split('[total times, per execution (benchmark phase)]')[1];
    const runtime = perExecTotal.split('\n').find((l) => l.startsWith('Runtime'))!;
    assert.deepEqual(runtime.trim().split(/\s+/), ['Runtime', '-', '5.50', '-', '5.50', '64.71%']);
  });

  it('says when a run is incomplete and when the reference would refuse the trace', () => {
    const text = shown('nesting.systrace');
    assert.match(text, /Problems: 2 error\(s\), 0 warning\(s\)/);
    assert.match(text, /2 nesting violation\(s\) in this run: the reference parser would refuse it/);
    const open = renderSummary(JSON.parse(JSON.stringify(nnapiSummary(NnapiDocument.parse('  NeuralNetworks-100  (  100) [001] ...1   100.000000: tracing_mark_write: B|100|[NN_LR_PP]open\n'), 'file:///x'))), 'x');
    assert.match(open, /Incomplete trace, not able to print all statistics/);
  });

  it('explains a failed request', () => {
    assert.match(renderSummary({ ok: false, uri: 'file:///a', reason: 'the document is not open' }, 'a'), /No summary: the document is not open/);
  });

  it('shows a mark\'s terminal controls escaped', () => {
    const row = (t: string, m: string) => `  NeuralNetworks-100  (  100) [001] ...1   ${t}: tracing_mark_write: ${m}`;
    const evil = '\u001b]0;pwned\u0007\u009b2J';
    const text = [row('100.000000', `B|100|[NN_LA_PO]run${evil}`), row('100.001000', 'B|100|[NN_LR_PC]c'), row('100.002000', 'E'), row('100.003000', 'E')].join('\n');
    const out = renderSummary(JSON.parse(JSON.stringify(nnapiSummary(NnapiDocument.parse(text), 'file:///x'))), 'x');
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(out), JSON.stringify(out.slice(0, 300)));
    assert.match(out, /Run 1: B\|100\|\[NN_LA_PO\]run\\x1b\]0;pwned\\x07\\x9b2J/);
  });
});
