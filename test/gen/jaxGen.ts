/**
 * JAX's `perfetto_trace.json.gz` (`jax.profiler.trace(dir, create_perfetto_trace=True)`): JAX's
 * `_write_perfetto_trace_file` (jax/_src/profiler.py) loads the profiler's `*.trace.json.gz`,
 * deletes its `metadata` and writes `json.dumps(trace)` gzipped: one line, Python's `", "` and
 * `": "` separators. The trace is XLA's trace-viewer JSON (tsl `TraceContainerToJson`):
 * `displayTimeUnit: "ns"`, `M` events first (process name and sort index per device, thread name
 * and sort index per resource, no `tid` on process events), then `X` events with fractional µs and
 * string args, and the events array ends with an empty object `{}`. Generated: no GPU ran; the
 * names and numbers are those of a small jitted MLP step on one GPU.
 */
export interface JaxTrace {
  /** The JSON text (gzip it for the file). */
  text: string;
  /** Events that are drawn: every X (the `{}` and M events are not). */
  slices: number;
}

export function jaxPerfettoTrace(): JaxTrace {
  const ev: Record<string, unknown>[] = [];
  const GPU = 1, HOST = 2;
  ev.push({ ph: 'M', pid: GPU, name: 'process_name', args: { name: '/device:GPU:0' } });
  ev.push({ ph: 'M', pid: GPU, name: 'process_sort_index', args: { sort_index: GPU } });
  const streams: [number, string][] = [[14, 'Stream #14(Compute)'], [15, 'Stream #15(MemcpyH2D)'], [16, 'Stream #16(MemcpyD2H)']];
  for (const [tid, name] of streams) {
    ev.push({ ph: 'M', pid: GPU, tid, name: 'thread_name', args: { name } });
    ev.push({ ph: 'M', pid: GPU, tid, name: 'thread_sort_index', args: { sort_index: tid } });
  }
  ev.push({ ph: 'M', pid: HOST, name: 'process_name', args: { name: '/host:CPU' } });
  ev.push({ ph: 'M', pid: HOST, name: 'process_sort_index', args: { sort_index: HOST } });
  for (const [tid, name] of [[3_000_021, 'python3'], [3_000_117, 'tf_XLAGpuExecutor']] as const) {
    ev.push({ ph: 'M', pid: HOST, tid, name: 'thread_name', args: { name } });
    ev.push({ ph: 'M', pid: HOST, tid, name: 'thread_sort_index', args: { sort_index: tid } });
  }
  // Device events first (ordered by device, then resource, then time), then host events.
  const x = (pid: number, tid: number, ts: number, dur: number, name: string, args: Record<string, string>) => ev.push({ ph: 'X', pid, tid, ts, dur, name, args });
  const kernels = ['input_fusion_reduce', 'loop_add_fusion', 'cutlass_gemm', 'loop_convert_fusion', 'wrapped_tanh'];
  let slices = 0;
  const stepStarts = [812_441.315, 812_913.902, 813_371.044];
  for (const [s, t0] of stepStarts.entries()) {
    x(GPU, 15, t0 + 4.096, 11.264, 'MemcpyH2D', { correlation_id: `${1000 + s * 10}`, group_id: `${s}`, memcpy_details: 'kind_src:pageable kind_dst:device size:524288 dest:0 async:1', run_id: '2107441' });
    slices++;
    let t = t0 + 18.5;
    for (const [k, name] of kernels.entries()) {
      const dur = [7.168, 3.072, 41.984, 2.976, 4.128][k];
      x(GPU, 14, Math.round(t * 1000) / 1000, dur, name, { correlation_id: `${1001 + s * 10 + k}`, group_id: `${s}`, hlo_module: 'jit_train_step', hlo_op: `${name}.${k + 1}`, kernel_details: `regs:${32 + k * 8} static_shared:0 dynamic_shared:${k === 2 ? 98304 : 0} grid:${k === 2 ? '32,4,1' : '1024,1,1'} block:${k === 2 ? '384,1,1' : '128,1,1'} occ_pct:${k === 2 ? 12.5 : 100}`, run_id: '2107441' });
      slices++;
      t += dur + 1.4;
    }
    x(GPU, 16, Math.round((t + 2) * 1000) / 1000, 2.048, 'MemcpyD2H', { correlation_id: `${1009 + s * 10}`, group_id: `${s}`, memcpy_details: 'kind_src:device kind_dst:pinned size:4 dest:-1 async:1', run_id: '2107441' });
    slices++;
  }
  for (const [s, t0] of stepStarts.entries()) {
    x(HOST, 3_000_021, Math.round((t0 - 35.2) * 1000) / 1000, 160.317, `PjitFunction(train_step)`, { group_id: `${s}` });
    x(HOST, 3_000_117, Math.round((t0 - 20.1) * 1000) / 1000, 94.51, 'ThunkExecutor::Execute', { group_id: `${s}`, run_id: '2107441' });
    slices += 2;
  }
  // XLA's writer closes the array with an empty object.
  ev.push({});
  return { text: pyDumps({ displayTimeUnit: 'ns', traceEvents: ev }), slices };
}

/** Python's `json.dumps` with its default separators; floats as Python prints them (`1.0`, not `1`). */
function pyDumps(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(', ')}]`;
  if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${pyDumps(x)}`).join(', ')}}`;
  if (typeof v === 'number' && !Number.isInteger(v)) return String(v);
  return JSON.stringify(v);
}
