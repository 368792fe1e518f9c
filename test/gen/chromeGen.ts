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
