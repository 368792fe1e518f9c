/**
 * A deterministic PyTorch-profiler-shaped Chrome trace (Kineto layout): CPU ops on two threads
 * (`python_function` around `cpu_op` around `cuda_runtime` launches), kernels on two CUDA streams,
 * memcpy and memset, `ac2g` flows from each launch to its kernel, `M` metadata at the end with
 * `ts` 0, `displayTimeUnit: "ns"` while `ts` stays in µs, and the top-level extras Kineto writes.
 * One event per line, as the profiler writes them.
 */
export function pytorchTrace(steps = 3): string {
  const ev: string[] = [];
  const e = (o: Record<string, unknown>) => ev.push(`  ${JSON.stringify(o)}`);
  const pid = 1234, gpu = 0;
  let t = 1_700_000_000_000.5;
  let corr = 1;
  for (let step = 0; step < steps; step++) {
    for (const tid of [1234, 1240]) {
      const start = t;
      e({ ph: 'X', cat: 'python_function', name: `nn.Module: Linear_${step}`, pid, tid, ts: start, dur: 90, args: { 'Python id': step } });
      e({ ph: 'X', cat: 'cpu_op', name: 'aten::linear', pid, tid, ts: start + 5, dur: 80, args: { 'External id': corr, 'Input Dims': [[8, 64], [64, 64]] } });
      for (const [k, stream] of [[0, 7], [1, 8]] as const) {
        const launch = start + 10 + k * 30;
        e({ ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid, tid, ts: launch, dur: 8, args: { correlation: corr, 'External id': corr } });
        e({ ph: 's', id: corr, pid, tid, ts: launch, cat: 'ac2g', name: 'ac2g' });
        const kStart = launch + 20;
        e({ ph: 'X', cat: 'kernel', name: `ampere_sgemm_64x64_nn_${k}`, pid: gpu, tid: stream, ts: kStart, dur: 25, args: { correlation: corr, stream, device: 0, grid: [4, 1, 1] } });
        e({ ph: 'f', id: corr, pid: gpu, tid: stream, ts: kStart, cat: 'ac2g', name: 'ac2g', bp: 'e' });
        corr++;
      }
      e({ ph: 'X', cat: 'gpu_memcpy', name: 'Memcpy DtoH (Device -> Pinned)', pid: gpu, tid: 7, ts: start + 100, dur: 6, args: { bytes: 4096 } });
      e({ ph: 'X', cat: 'gpu_memset', name: 'Memset (Device)', pid: gpu, tid: 8, ts: start + 100, dur: 2, args: { bytes: 256 } });
      t += 120;
    }
  }
  e({ ph: 'i', cat: 'cpu_instant_event', name: 'Iteration Start: PyTorch Profiler', pid, tid: 1234, ts: 1_700_000_000_000.5, s: 't' });
  e({ ph: 'C', name: 'GPU Memory', pid: gpu, ts: 1_700_000_000_000.5, args: { value: 1024 } });
  e({ ph: 'C', name: 'GPU Memory', pid: gpu, ts: t, args: { value: 4096 } });
  e({ name: 'process_name', ph: 'M', ts: 0, pid, tid: 0, args: { name: 'python3' } });
  e({ name: 'process_name', ph: 'M', ts: 0, pid: gpu, tid: 0, args: { name: 'GPU 0' } });
  e({ name: 'process_sort_index', ph: 'M', pid: gpu, tid: 0, args: { sort_index: 1 } });
  e({ name: 'process_sort_index', ph: 'M', pid, tid: 0, args: { sort_index: 0 } });
  e({ name: 'thread_name', ph: 'M', ts: 0, pid, tid: 1234, args: { name: 'thread 1234 (python3)' } });
  e({ name: 'thread_name', ph: 'M', ts: 0, pid, tid: 1240, args: { name: 'thread 1240 (pt_autograd_0)' } });
  e({ name: 'thread_name', ph: 'M', ts: 0, pid: gpu, tid: 7, args: { name: 'stream 7' } });
  e({ name: 'thread_name', ph: 'M', ts: 0, pid: gpu, tid: 8, args: { name: 'stream 8' } });
  return `{
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA A100", "totalGlobalMem": 42314694656}],
  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 1},
  "traceEvents": [
${ev.join(',\n')}
  ],
  "displayTimeUnit": "ns",
  "baseTimeNanoseconds": 1700000000000000000,
  "traceName": "pytorch.pt.trace.json"
}
`;
}

/**
 * A small PyTorch-shaped trace whose flows take every form the exporter must carry back: `ac2g`
 * launch → kernel flows ending on the GPU's pid, one launch fanning out to kernels on two streams,
 * an `f` without `bp` (bound to the next slice), an `s` → `t` → `f` chain and a `fwdbwd` flow
 * between CPU threads; the flows' names and categories differ, so a test sees they are kept.
 */
export function pytorchFlowsTrace(): string {
  const cpu = 1234, gpu = 0;
  const ev: object[] = [
    { ph: 'X', cat: 'python_function', name: 'nn.Module: Linear_0', pid: cpu, tid: 1234, ts: 0, dur: 100 },
    { ph: 'X', cat: 'cpu_op', name: 'aten::linear', pid: cpu, tid: 1234, ts: 5, dur: 90, args: { 'External id': 1 } },
    { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: cpu, tid: 1234, ts: 10, dur: 8, args: { correlation: 1 } },
    { ph: 's', id: 1, pid: cpu, tid: 1234, ts: 10, cat: 'ac2g', name: 'ac2g' },
    { ph: 'X', cat: 'kernel', name: 'ampere_sgemm_a', pid: gpu, tid: 7, ts: 30, dur: 25, args: { correlation: 1 } },
    { ph: 'f', id: 1, pid: gpu, tid: 7, ts: 30, cat: 'ac2g', name: 'ac2g', bp: 'e' },
    // Fan-out: one launch, two kernel ends (streams 7 and 8).
    { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: cpu, tid: 1234, ts: 40, dur: 8, args: { correlation: 2 } },
    { ph: 's', id: 2, pid: cpu, tid: 1234, ts: 40, cat: 'ac2g', name: 'ac2g' },
    { ph: 'X', cat: 'kernel', name: 'ampere_sgemm_b', pid: gpu, tid: 8, ts: 60, dur: 10, args: { correlation: 2 } },
    { ph: 'f', id: 2, pid: gpu, tid: 8, ts: 60, cat: 'ac2g', name: 'ac2g', bp: 'e' },
    { ph: 'X', cat: 'kernel', name: 'ampere_sgemm_c', pid: gpu, tid: 7, ts: 80, dur: 10, args: { correlation: 2 } },
    { ph: 'f', id: 2, pid: gpu, tid: 7, ts: 80, cat: 'ac2g', name: 'ac2g', bp: 'e' },
    // An f without bp binds to the next slice beginning at its time (the memcpy).
    { ph: 'X', cat: 'cuda_runtime', name: 'cudaMemcpyAsync', pid: cpu, tid: 1234, ts: 60, dur: 5, args: { correlation: 3 } },
    { ph: 's', id: 3, pid: cpu, tid: 1234, ts: 61, cat: 'ac2g', name: 'ac2g' },
    { ph: 'f', id: 3, pid: gpu, tid: 9, ts: 70, cat: 'ac2g', name: 'ac2g' },
    { ph: 'X', cat: 'gpu_memcpy', name: 'Memcpy HtoD', pid: gpu, tid: 9, ts: 72, dur: 6 },
    // A chain: s on the backward op, t on the autograd thread, f back on the main thread.
    { ph: 'X', cat: 'cpu_op', name: 'autograd::engine', pid: cpu, tid: 1240, ts: 110, dur: 40 },
    { ph: 'X', cat: 'cpu_op', name: 'aten::mm_backward', pid: cpu, tid: 1240, ts: 120, dur: 10 },
    { ph: 'X', cat: 'cpu_op', name: 'aten::sum', pid: cpu, tid: 1234, ts: 160, dur: 10 },
    { ph: 's', id: 7, pid: cpu, tid: 1234, ts: 6, cat: 'fwdbwd', name: 'fwdbwd' },
    { ph: 't', id: 7, pid: cpu, tid: 1240, ts: 121, cat: 'fwdbwd', name: 'fwdbwd' },
    { ph: 'f', id: 7, pid: cpu, tid: 1234, ts: 161, cat: 'fwdbwd', name: 'fwdbwd', bp: 'e' },
    { name: 'process_name', ph: 'M', ts: 0, pid: cpu, tid: 0, args: { name: 'python3' } },
    { name: 'process_name', ph: 'M', ts: 0, pid: gpu, tid: 0, args: { name: 'GPU 0' } },
    { name: 'thread_name', ph: 'M', ts: 0, pid: cpu, tid: 1234, args: { name: 'thread 1234 (python3)' } },
    { name: 'thread_name', ph: 'M', ts: 0, pid: cpu, tid: 1240, args: { name: 'thread 1240 (pt_autograd_0)' } },
    { name: 'thread_name', ph: 'M', ts: 0, pid: gpu, tid: 7, args: { name: 'stream 7' } },
    { name: 'thread_name', ph: 'M', ts: 0, pid: gpu, tid: 8, args: { name: 'stream 8' } },
    { name: 'thread_name', ph: 'M', ts: 0, pid: gpu, tid: 9, args: { name: 'stream 9' } },
  ];
  return `{"schemaVersion": 1, "traceEvents": [\n${ev.map((e) => `  ${JSON.stringify(e)}`).join(',\n')}\n], "displayTimeUnit": "ns"}\n`;
}
