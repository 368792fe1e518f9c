import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chromeSummary } from '../../../core/chrome/summary';
import { buildTimeline } from '../../../core/detectFormat';

/** A step on the CPU with two operators launching three kernels on two streams, and a copy. */
function trace(): string[] {
  const ev = [
    { ph: 'M', name: 'process_name', pid: 1, tid: 0, args: { name: 'python3' } },
    { ph: 'M', name: 'process_name', pid: 0, tid: 0, args: { name: 'GPU 0' } },
    { ph: 'X', cat: 'user_annotation', name: 'ProfilerStep#1', pid: 1, tid: 1, ts: 0, dur: 100 },
    { ph: 'X', cat: 'cpu_op', name: 'aten::mm', pid: 1, tid: 1, ts: 10, dur: 20 },
    { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: 1, tid: 1, ts: 12, dur: 5 },
    { ph: 's', cat: 'ac2g', id: 1, pid: 1, tid: 1, ts: 12 },
    { ph: 'X', cat: 'cpu_op', name: 'aten::add', pid: 1, tid: 1, ts: 40, dur: 20 },
    { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: 1, tid: 1, ts: 42, dur: 5 },
    { ph: 's', cat: 'ac2g', id: 2, pid: 1, tid: 1, ts: 42 },
    { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: 1, tid: 1, ts: 50, dur: 5 },
    { ph: 's', cat: 'ac2g', id: 3, pid: 1, tid: 1, ts: 50 },
    // Stream 7: gemm 20..50, add 45..60 overlapping it (one stream never counts twice); stream 8: add 55..65.
    { ph: 'f', cat: 'ac2g', id: 1, pid: 0, tid: 7, ts: 20, bp: 'e' },
    { ph: 'X', cat: 'kernel', name: 'gemm', pid: 0, tid: 7, ts: 20, dur: 30 },
    { ph: 'f', cat: 'ac2g', id: 2, pid: 0, tid: 7, ts: 45, bp: 'e' },
    { ph: 'X', cat: 'kernel', name: 'add', pid: 0, tid: 7, ts: 45, dur: 15 },
    { ph: 'f', cat: 'ac2g', id: 3, pid: 0, tid: 8, ts: 55, bp: 'e' },
    { ph: 'X', cat: 'kernel', name: 'add', pid: 0, tid: 8, ts: 55, dur: 10 },
    { ph: 'X', cat: 'gpu_memcpy', name: 'Memcpy HtoD (Pageable -> Device)', pid: 0, tid: 8, ts: 80, dur: 10, args: { bytes: 1_000_000 } },
    { ph: 'X', cat: 'gpu_user_annotation', name: 'ProfilerStep#1', pid: 0, tid: 7, ts: 20, dur: 40 },
  ];
  return [JSON.stringify({ traceEvents: ev })];
}

describe('Chrome/PyTorch summary', () => {
  const m = buildTimeline('s.pt.trace.json', trace())!;

  it('GPU busy per stream is a union; kernels and operators by total time; copies with their bandwidth; steps with their GPU share', () => {
    const s = chromeSummary(m);
    assert.deepEqual(s.streams.map((x) => [x.track.replace(/ › .*/, ''), x.items, x.busy]), [['GPU 0', 2, 40], ['GPU 0', 2, 20]]);
    assert.deepEqual(s.kernels.map((k) => [k.name, k.count, k.total, k.p95]), [['gemm', 1, 30, 30], ['add', 2, 25, 15]]);
    assert.equal(s.kernels[0].share, 30 / 55);
    assert.deepEqual(s.cpuOps.map((o) => [o.name, o.count, o.total]).sort(), [['aten::add', 1, 20], ['aten::mm', 1, 20]]);
    assert.deepEqual(s.copies.map((c) => [c.name, c.bytes, c.time, c.gbPerS]), [['Memcpy HtoD (Pageable -> Device)', 1_000_000, 10, 100]]);
    // The CPU step only (Kineto writes it on the GPU stream too); GPU busy in it: 20..65 and 80..90 → 55.
    assert.deepEqual(s.steps.map((x) => [x.name, x.dur, x.gpuBusy, x.kernels]), [['ProfilerStep#1', 100, 55, 3]]);
    // Each launch's kernel time goes to the operator enclosing the launch.
    assert.deepEqual(s.opGpu.map((o) => [o.name, o.launches, o.gpuTime]), [['aten::mm', 1, 30], ['aten::add', 2, 25]]);
  });

  it('a range clips every time to it', () => {
    const s = chromeSummary(m, 40, 60);
    assert.deepEqual(s.kernels.map((k) => [k.name, k.total]), [['add', 20], ['gemm', 10]]);
    assert.deepEqual(s.steps.map((x) => [x.dur, x.gpuBusy]), [[20, 20]]);
    assert.deepEqual(s.copies, []);
  });

  it('on a PyTorch 2.x training step as Kineto writes it: every kernel on a stream, and the steps of the CPU thread', () => {
    const text = readFileSync(join(__dirname, '../../fixtures/real/pytorch/eager-step.pt.trace.json'), 'utf8');
    const p = buildTimeline('eager-step.pt.trace.json', text.split('\n'))!;
    const s = chromeSummary(p);
    const kernels = (text.match(/"cat": "kernel"/g) ?? []).length;
    assert.equal(s.kernels.reduce((a, k) => a + k.count, 0), kernels);
    assert.deepEqual(s.steps.map((x) => x.name), ['ProfilerStep#2', 'ProfilerStep#3']);
    for (const x of s.streams) assert.ok(x.busy <= p.t1 - p.t0 && x.busyShare <= 1, x.track);
    assert.ok(s.opGpu.length > 0 && s.copies.some((c) => c.gbPerS !== null));
  });
});
