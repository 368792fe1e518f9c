import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultDiagnosticSettings } from '../../../core/common/settings';
import { NnapiDocument } from '../../../core/nnapi/document';
import { summaryJson } from '../../../core/nnapi/summary';
import { Scope } from '../../../core/nnapi/scope';
import { HEADER, row } from './traceBuilder';

/** Calls of Scope's methods while `f` runs (each method wrapped with a counter, then restored). */
function countScopeCalls(f: () => void): number {
  const proto = Scope.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const names = Object.getOwnPropertyNames(Scope.prototype)
    .filter((k) => k !== 'constructor' && typeof Object.getOwnPropertyDescriptor(Scope.prototype, k)?.value === 'function');
  const saved = names.map((k) => [k, proto[k]] as const);
  let calls = 0;
  for (const [k, fn] of saved) proto[k] = function (this: unknown, ...a: unknown[]) { calls++; return fn.apply(this, a); };
  try {
    f();
  } finally {
    for (const [k, fn] of saved) proto[k] = fn;
  }
  return calls;
}

describe('nnapi robustness', () => {
  const deep = (n: number) => {
    const lines = [...HEADER];
    for (let i = 0; i < n; i++) lines.push(row({ t: i, pid: 1, mark: `B|1|[NN_LR_${i % 2 ? 'PU' : 'PC'}]f${i}` }));
    for (let i = 0; i < n; i++) lines.push(row({ t: n + i, pid: 1, mark: 'E' }));
    return lines.join('\n');
  };

  it('20 000-deep nesting (PU chains included) does not overflow the stack', () => {
    const n = 20_000;
    const doc = NnapiDocument.parse(deep(n));
    assert.deepEqual(doc.allDiagnostics(), []);
    // The outermost scope is counted (the rest is added detail): (2n − 1) ms.
    const pc = (doc.analysis.runs[0].aggregate!.times.PC as Record<string, number>).LR;
    assert.ok(Math.abs(pc - (2 * n - 1)) < 0.01);
  });

  it('nor goes quadratic: 8× deeper makes about 8× more calls on the scopes, not 64×', () => {
    // Work counted, not timed: every call of a Scope method (the tree walks of the rewriting,
    // validation, times and summary go through them) during the whole analysis at two depths.
    const work = (n: number) => countScopeCalls(() => {
      const doc = NnapiDocument.parse(deep(n));
      doc.allDiagnostics();
      summaryJson(doc.analysis, {});
    });
    const small = work(1_000);
    const big = work(8_000);
    assert.ok(small > 1_000, `${small} calls`);
    assert.ok(big / small < 12, `8× deeper made ${(big / small).toFixed(1)}× more calls (${small} → ${big})`);
  });

  it('never-closed deep nesting reports each open scope, capped for display', () => {
    const lines = [...HEADER];
    for (let i = 0; i < 5000; i++) lines.push(row({ t: i, pid: 1, mark: `B|1|[NN_LR_PC]f${i}` }));
    const doc = NnapiDocument.parse(lines.join('\n'));
    assert.equal(doc.allDiagnostics().filter((d) => d.code === 'nnapi.unclosed-begin').length, 5000);
    assert.equal(doc.diagnostics(defaultDiagnosticSettings).length, defaultDiagnosticSettings.maxProblems + 1);
    assert.deepEqual(JSON.parse(summaryJson(doc.analysis, {})), []);
  });

  it('an HTML export with multi-megabyte lines still gives diagnostics', () => {
    const js = `<script>${'var a="[NN_LR_PP]x tracing_mark_write: B|1|";'.repeat(100_000)}</script>`;
    const junk = `  task-1  (    1) [000] ...1   ${'9'.repeat(1_000_000)}: tracing_mark_write: B|1|[NN_LR_PP]${'y'.repeat(1_000_000)}`;
    const text = ['<!DOCTYPE html>', js, '<script class="trace-data">', HEADER[2], row({ t: 0, pid: 1, mark: 'B|1|[NN_LR_PP]a' }), junk,
      row({ t: 1, pid: 1, mark: 'E' }), '</script>', js, '</html>'].join('\n');
    const doc = NnapiDocument.parse(text);
    // The huge row has no fraction in its timestamp: reported (with a short message) and skipped;
    // the megabytes of script before the header and after </script> do not count.
    const d = doc.allDiagnostics();
    assert.deepEqual(d.map((x) => [x.code, x.range.start.line]), [['nnapi.unparsed-mark', 5]]);
    assert.ok(d[0].message.length < 400);
  });

  it('timestamps going backwards give negative durations, not crashes', () => {
    const lines = [...HEADER, row({ t: 10, pid: 1, mark: 'B|1|[NN_LR_PC]a' }), row({ t: 4, pid: 1, mark: 'E' })];
    const doc = NnapiDocument.parse(lines.join('\n'));
    assert.ok(Math.abs((doc.analysis.runs[0].aggregate!.times.PC as Record<string, number>).LR + 6) < 0.01);
  });

  it('binary junk, empty files and CRLF', () => {
    assert.deepEqual(NnapiDocument.parse('').allDiagnostics().map((d) => d.code), ['nnapi.no-runtime']);
    const bin = String.fromCharCode(...Array.from({ length: 2000 }, (_, i) => (i * 7919) % 256));
    assert.ok(Array.isArray(NnapiDocument.parse(bin).allDiagnostics()));
    const crlf = [...HEADER, row({ t: 0, pid: 1, mark: 'B|1|[NN_LR_PC]a' }), row({ t: 1, pid: 1, mark: 'E' })].join('\r\n');
    assert.deepEqual(NnapiDocument.parse(crlf).allDiagnostics(), []);
  });
});
