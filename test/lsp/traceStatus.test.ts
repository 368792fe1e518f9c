import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { splitLines } from '../../core/common/lines';
import { MetricsCollector } from '../../core/trace/metrics/collector';
import { TRACE_STATUS_METHOD, type TraceStatusResult } from '../../protocol/traceStatus';
import { serverPerSuite } from './lspClient';

const EXAMPLE = readFileSync(resolve(__dirname, '../../examples/llm-layer.trace.jsonl'), 'utf8');

/** What the status bar must show, read from the file independently of the server's parser. */
function expected(text: string): { events: number; first: number; last: number } {
  const objs = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { t_cycle?: number });
  const ts = objs.map((o) => o.t_cycle).filter((t): t is number => typeof t === 'number');
  return { events: ts.length, first: Math.min(...ts), last: Math.max(...ts) };
}

describe('npuTrace/traceStatus (the trace status-bar item) over stdio', () => {
  const c = serverPerSuite();

  it('gives the event count, the cycle window and the clock of an open trace, and follows an edit', async () => {
    const uri = 'file:///status.trace.jsonl';
    await c.open(uri, 'npu-trace', EXAMPLE);
    const r = await c.request<TraceStatusResult>(TRACE_STATUS_METHOD, { uri });
    assert.ok(r.ok, JSON.stringify(r));
    const want = expected(EXAMPLE);
    assert.equal(r.events, want.events);
    assert.equal(r.first, want.first);
    assert.equal(r.last, want.last);
    // The same count and span as `npu-trace stats` (and the Summary) give.
    const stats = new MetricsCollector();
    for (const l of splitLines(EXAMPLE)) stats.addLine(l);
    const st = stats.finish();
    assert.equal(r.events, st.events);
    assert.equal(r.last! - r.first!, st.span_cycles);
    // TRACE_META says clock_ghz 1.2.
    assert.ok(r.nsPerCycle !== null && Math.abs(r.nsPerCycle - 1 / 1.2) < 1e-9);
    const v0 = r.version;

    // A later event typed at the end: one more event, a longer window, a newer version.
    const n = EXAMPLE.split('\n').length - 1;
    const late = want.last + 5000;
    await c.change(uri, [{ range: { start: { line: n, character: 0 }, end: { line: n, character: 0 } }, text: `{"event_type":"SRAM_ACCESS","t_cycle":${late}}\n` }]);
    const after = await c.request<TraceStatusResult>(TRACE_STATUS_METHOD, { uri });
    assert.ok(after.ok);
    assert.equal(after.events, want.events + 1);
    assert.equal(after.last, late);
    assert.ok(after.version > v0);
  });

  it('has no clock and no window for a trace without TRACE_META or t_cycle, and refuses other documents', async () => {
    const uri = 'file:///bare.trace.jsonl';
    await c.open(uri, 'npu-trace', '{"event_type":"CMD_ENQUEUE"}\nnot json\n');
    const r = await c.request<TraceStatusResult>(TRACE_STATUS_METHOD, { uri });
    assert.ok(r.ok);
    assert.deepEqual({ events: r.events, first: r.first, last: r.last, nsPerCycle: r.nsPerCycle }, { events: 0, first: null, last: null, nsPerCycle: null });
    const missing = await c.request<TraceStatusResult>(TRACE_STATUS_METHOD, { uri: 'file:///not-open.trace.jsonl' });
    assert.equal(missing.ok, false);
    await c.open('file:///q.cmdq.json', 'cmdq', '{"commands":[]}');
    const cmdq = await c.request<TraceStatusResult>(TRACE_STATUS_METHOD, { uri: 'file:///q.cmdq.json' });
    assert.equal(cmdq.ok, false);
  });
});
