// The summary's way through a systrace (settle.ts: each top-level scope settled when it closes, no
// scope kept) gives what the whole tree gives: the same numbers to the last bit, the same problems.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { defaultDiagnosticSettings, finalizeDiagnostics } from '../../../core/common/settings';
import { analyze, type Analysis } from '../../../core/nnapi/analysis';
import { Collector, SystraceStream } from '../../../core/nnapi/collect';
import { looksLikeHtml, parseRowLine } from '../../../core/nnapi/row';
import { summarize } from '../../../core/nnapi/summary';
import { benchmarkTrace } from './traces';
import { HEADER, row } from './traceBuilder';

function whole(text: string): Analysis {
  const lines = text.split('\n');
  const c = new Collector(looksLikeHtml(lines[0]));
  lines.forEach((l, n) => c.add(parseRowLine(l), n));
  return analyze(c);
}

function summary(text: string): Analysis {
  const s = new SystraceStream();
  text.split('\n').forEach((l, n) => s.line(l, n));
  return analyze(s.collector);
}

/**
 * Numbers to 12 significant digits: a scope settled alone adds its time before its ancestors'
 * (settle.ts), the same sum in another order, which may differ in the last bit of a double.
 */
function approx(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? Number(v.toPrecision(12)) : v;
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, approx(x)]));
  if (Array.isArray(v)) return v.map(approx);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, approx(x)]));
  return v;
}

function assertSame(text: string): void {
  const a = whole(text);
  const b = summary(text);
  assert.deepEqual(approx(summarize(b)), approx(summarize(a)));
  const diags = (x: Analysis) => finalizeDiagnostics(x.diagnostics, { ...defaultDiagnosticSettings, maxProblems: 1e9 });
  assert.deepEqual(diags(b), diags(a));
  for (const [i, r] of a.runs.entries()) {
    for (const [pid, t] of r.run.threads) assert.deepEqual(approx(b.runs[i].run.threads.get(pid)?.stats), approx(t.stats), `run ${i} thread ${pid}`);
  }
}

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'nnapi');

describe('nnapi summary settled scope by scope', () => {
  it('the fixtures and the benchmark trace: the same numbers and problems as the whole tree', () => {
    for (const f of ['benchmark.systrace', 'driver.atrace', 'driver.systrace.html', 'nesting.systrace']) assertSame(readFileSync(join(FIXTURES, f), 'utf8'));
    assertSame(benchmarkTrace());
  });

  it('random traces (layers, phases, [SW], [SUB], drivers known late, runs, unclosed scopes): the same', () => {
    const LAYERS = ['LA', 'LR', 'LC', 'LD', 'LI', 'LX', 'LU'];
    const PHASES = ['PO', 'PI', 'PP', 'PC', 'PE', 'PU', 'PIO', 'PR', 'PTR', 'PWU', 'PBM'];
    const FNS = ['f', 'ANeuralNetworksExecution_create', 'ANeuralNetworksExecution_startCompute', 'ANeuralNetworksEvent_wait', 'HIDL::IPreparedModel::execute::server', 'HIDL::IExecutionCallback::notify::client'];
    const op = fc.oneof(
      { weight: 6, arbitrary: fc.record({ pid: fc.constantFrom(1, 2, 3), layer: fc.constantFrom(...LAYERS), phase: fc.constantFrom(...PHASES), fn: fc.constantFrom(...FNS), tag: fc.constantFrom('', '[SW]', '[SUB]') }) },
      { weight: 5, arbitrary: fc.record({ pid: fc.constantFrom(1, 2, 3), end: fc.constant(true) }) },
      // A driver process told late (process 3 serves HIDL), and a new run.
      { weight: 1, arbitrary: fc.record({ pid: fc.constantFrom(1, 2, 3), hidl: fc.constant(true) }) },
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
      const lines = [...HEADER];
      ops.forEach((o, t) => {
        // Threads 1 and 2 in process 1, thread 3 in process 3.
        const tgid = o.pid === 3 ? 3 : 1;
        let mark: string;
        if ('end' in o) mark = 'E';
        else if ('hidl' in o) mark = `B|${tgid}|HIDL::IDevice::prepareModel::server`;
        else mark = `B|${tgid}|${o.tag}[NN_${o.layer}_${o.phase}]${o.fn}`;
        lines.push(row({ t: t * 1.37, pid: o.pid, tgid, mark }));
      });
      assertSame(lines.join('\n') + '\n');
    }), { numRuns: 400 });
  });
});
