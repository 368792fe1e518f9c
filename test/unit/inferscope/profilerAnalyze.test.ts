import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyze } from '../../../core/inferscope/analyze';
import { InferscopeDocument } from '../../../core/inferscope/document';
import { InferscopeStream } from '../../../core/inferscope/stream';
import { profilerEvents, pythonJson, unifiedTimeline } from '../../gen/inferscopeProfiler';

type Ev = Record<string, unknown>;

/**
 * InferScope's own `inferscope analyze` (src/inferscope/analyzer/bottleneck_analyzer.py @ 78c4056e,
 * `_compute_summary` and `_detect_bottleneck`), re-implemented from its source as the reference:
 * end-to-end is the last stamp less the first (global_ts_us, else timestamp_start_us / _end_us,
 * else timestamp_us); GPU, H2D and D2H are sums of duration_us (no union); memory > 20 % is
 * memory_bound, then GPU > 80 % gpu_bound, idle > 10 % with GPU < 50 % cpu_bound, then GPU < 20 %
 * with CPU > total cpu_bound, 40–80 % balanced, else unknown.
 */
function inferscopeAnalyze(timeline: readonly Ev[]) {
  const ts = (e: Ev, ...keys: string[]) => {
    for (const k of keys) if (e[k] !== undefined) return e[k] as number;
    return 0;
  };
  const start = Math.min(...timeline.map((e) => ts(e, 'global_ts_us', 'timestamp_start_us', 'timestamp_us')));
  const end = Math.max(...timeline.map((e) => ts(e, 'global_ts_us', 'timestamp_end_us', 'timestamp_us')));
  const total = end > start ? end - start : 1;
  let gpu = 0;
  let h2d = 0;
  let d2h = 0;
  let cpuCalls = 0;
  const scopes = new Map<string, number>();
  const cpuRanges: [number, number][] = [];
  let infStart: number | undefined;
  let infEnd: number | undefined;
  for (const e of [...timeline].sort((a, b) => ts(a, 'global_ts_us', 'timestamp_us') - ts(b, 'global_ts_us', 'timestamp_us'))) {
    const at = ts(e, 'global_ts_us', 'timestamp_us');
    if (e.type === 'scope_enter') scopes.set(e.name as string, at);
    if (e.type === 'scope_exit' && scopes.has(e.name as string)) {
      const s = scopes.get(e.name as string)!;
      scopes.delete(e.name as string);
      if (['tokenization', 'decoding', 'preprocessing', 'postprocessing'].includes(e.name as string)) cpuRanges.push([s, at]);
    }
  }
  for (const e of timeline) {
    if (e.type === 'scope_enter' && e.name === 'inference') infStart = ts(e, 'global_ts_us', 'timestamp_us');
    if (e.type === 'scope_exit' && e.name === 'inference') infEnd = ts(e, 'global_ts_us', 'timestamp_us');
    let d = (e.duration_us as number | undefined) ?? 0;
    if (d === 0) d = Math.max(0, ts(e, 'timestamp_end_us', 'global_ts_us') - ts(e, 'timestamp_start_us', 'global_ts_us'));
    const type = String(e.type);
    if (type.startsWith('gpu_')) gpu += d;
    else if (type === 'h2d_copy') h2d += d;
    else if (type === 'd2h_copy') d2h += d;
    else if (type === 'cpu_call') cpuCalls += d;
  }
  let cpu = cpuRanges.reduce((a, [s, e]) => a + e - s, 0) + cpuCalls;
  if (infStart && infEnd) cpu += Math.max(0, infEnd - infStart - gpu - h2d - d2h);
  const idle = Math.max(0, total - (cpu + gpu + h2d + d2h));
  const idleRatio = idle > total * 0.01 ? idle / total : 0;
  const util = gpu / total;
  const type = (h2d + d2h) / total > 0.2 ? 'memory_bound'
    : util > 0.8 ? 'gpu_bound'
      : idleRatio > 0.1 && util < 0.5 ? 'cpu_bound'
        : util < 0.2 && cpu > total ? 'cpu_bound'
          : util > 0.4 && util < 0.8 ? 'balanced' : 'unknown';
  return { type, total, gpu, h2d, d2h };
}

function ours(text: string, streamed: boolean) {
  if (!streamed) return analyze(InferscopeDocument.parse(text));
  const st = new InferscopeStream();
  for (let i = 0; i < text.length; i += 1 << 16) st.feed(text.slice(i, i + (1 << 16)));
  return analyze(new InferscopeDocument(st.end()));
}

describe("npu-trace analyze on the Profiler's layout agrees with InferScope's own analyzer", () => {
  // GPT-2 (12 blocks), a prefill and 8 decode steps: ~15k events, as the trace.
  const events = profilerEvents({ layers: 12, steps: 8, batch: 8 });
  for (const unified of [false, true]) {
    for (const streamed of [false, true]) {
      it(`${unified ? 'get_unified_timeline()' : 'the raw buffer'}, read ${streamed ? 'streamed' : 'whole'}: same bottleneck, GPU/H2D/D2H within 2 % of end-to-end`, () => {
        const timeline = unified ? unifiedTimeline(events) : events;
        const ref = inferscopeAnalyze(timeline);
        assert.equal(ref.type, 'gpu_bound');
        assert.ok(ref.gpu / ref.total > 0.9, `reference GPU ${ref.gpu / ref.total}`);
        const a = ours(pythonJson({ events: timeline }), streamed);
        assert.equal(a.trace_layout, 'profiler');
        assert.equal(a.bottleneck.type, ref.type);
        const e2e = a.summary.end_to_end_latency_us;
        assert.ok(Math.abs(e2e - ref.total) / ref.total < 0.02, `end-to-end ${e2e} vs ${ref.total}`);
        for (const [mine, theirs, what] of [[a.summary.total_gpu_time_us, ref.gpu, 'GPU'], [a.summary.total_h2d_us, ref.h2d, 'H2D'], [a.summary.total_d2h_us, ref.d2h, 'D2H']] as const) {
          assert.ok(Math.abs(mine - theirs) / ref.total < 0.02, `${what} ${mine} vs InferScope's ${theirs} of ${ref.total}`);
        }
        assert.ok(a.summary.total_h2d_us > 0 && a.summary.total_d2h_us > 0);
      });
    }
  }

  it('kernels that overlap count once (a union), where InferScope sums them', () => {
    const ev = profilerEvents({ layers: 1, steps: 0, batch: 1 });
    const last = ev.filter((e) => e.type === 'gpu_kernel').at(-1)!;
    // A second stream runs a kernel as long as the whole run, ending with the last one.
    const whole = (last.timestamp_us as number) - (ev.find((e) => e.type === 'gpu_kernel')!.timestamp_us as number);
    ev.push({ ...last, name: 'overlapping', stream_id: 9, duration_us: whole });
    const ref = inferscopeAnalyze(ev);
    const a = ours(pythonJson({ events: ev }), false);
    assert.ok(ref.gpu - a.summary.total_gpu_time_us > whole * 0.5, `${ref.gpu} vs ${a.summary.total_gpu_time_us}`);
    assert.ok(a.summary.total_gpu_time_us <= a.summary.end_to_end_latency_us);
  });
});
