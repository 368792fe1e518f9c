// A deterministic generator of valid InferScope traces (inferscope-data-model §1–2): per request a
// tokenize call, an H2D copy, kernels on two streams of GPU 0, a D2H copy, an allocation and an
// instant, under nested scopes inference → request → prep / gpu. Written as Python's
// json.dump(indent=2) writes it.

export interface GenOptions {
  requests?: number;
  /** Kernels per stream per request. */
  kernels?: number;
}

const WALL0 = Date.UTC(2025, 11, 27, 10, 30, 45) * 1000;
export const T0 = 1_234_567_890;

/** µs on the trace clock → ISO wall-clock with microseconds, at a fixed offset. */
export function wallOf(t: number): string {
  const us = WALL0 + (t - T0);
  const ms = Math.floor(us / 1000);
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, `.${String(us - Math.floor(us / 1e6) * 1e6).padStart(6, '0')}Z`);
}

export type Ev = Record<string, unknown>;

function span(id: string, type: string, name: string, start: number, end: number, metadata: Ev): Ev {
  return {
    id, type, name, timestamp_start_us: start, timestamp_end_us: end,
    wall_clock_start: wallOf(start), wall_clock_end: wallOf(end), duration_us: end - start, metadata,
  };
}

/** The next request's start after one ending at `end`: an idle gap, the next batch is not ready yet. */
export const nextRequest = (end: number) => end + 700 + 1000;

/**
 * Request `r`'s events, from time `t`, with its three scopes; event ids are numbered from `first`.
 * `end`: when its D2H copy starts less 100 µs (the next request starts `nextRequest(end)`).
 */
export function requestEvents(r: number, t: number, kernels: number, first: number): { events: Ev[]; scopes: Ev[]; end: number } {
  const events: Ev[] = [];
  const n = (s: string) => `${s}_${r}`;
  events.push(span(n('tok'), 'cpu_call', 'tokenize', t, t + 1500, { thread_id: 12345, cpu_id: 2, call_depth: 1, parent_scope: 'inference', allocations_bytes: 102400 }));
  events.push({ id: n('tok_done'), type: 'instant', name: 'tokenization_complete', timestamp_us: t + 1500, metadata: { user_metadata: { tokens: 1024, batch_size: 32 } } });
  const prepLast = first + events.length - 1;
  events.push(span(n('malloc'), 'memory_event', 'malloc', t + 1510, t + 1555, { operation: 'malloc', bytes: 262144, numa_node: 0, numa_pages_migrated: 64 }));
  events.push(span(n('h2d'), 'h2d_copy', 'copy_inputs', t + 1600, t + 2400, { device_id: 0, source_ptr: 'host:0x7f1a2b3c', dest_ptr: 'device:0xdeadbeef', bytes: 1048576, kind: 'pinned', throughput_gbps: 45.2 }));
  let end = t + 2400;
  for (let k = 0; k < kernels; k++) {
    const a = t + 2500 + k * 600;
    events.push(span(n(`k7_${k}`), 'gpu_kernel', k % 2 ? 'mlp_forward' : 'attention_forward', a, a + 500, { device_id: 0, stream_id: 7, grid_dim: [32, 1, 1], block_dim: [256, 1, 1], shared_memory_bytes: 8192, registers_per_thread: 64, occupancy: 0.87 }));
    events.push(span(n(`k8_${k}`), 'gpu_kernel', 'layernorm', a + 200, a + 550, { device_id: 0, stream_id: 8, grid_dim: [16, 1, 1], block_dim: [128, 1, 1], shared_memory_bytes: 0, registers_per_thread: 32, occupancy: 0.5 }));
    end = a + 550;
  }
  events.push(span(n('d2h'), 'd2h_copy', 'copy_outputs', end + 100, end + 700, { device_id: 0, source_ptr: 'device:0xcafebabe', dest_ptr: 'host:0x7f4d5e6f', bytes: 524288, kind: 'pageable', throughput_gbps: 42.8 }));
  const last = first + events.length - 1;
  const scopes = [
    { id: n('scope_request'), name: `request ${r}`, parent_id: 'scope_inference', child_ids: [n('scope_prep'), n('scope_gpu')], event_range: [first, last] },
    { id: n('scope_prep'), name: 'preprocess', parent_id: n('scope_request'), child_ids: [], event_range: [first, prepLast] },
    { id: n('scope_gpu'), name: 'gpu', parent_id: n('scope_request'), child_ids: [], event_range: [prepLast + 2, last] },
  ];
  return { events, scopes, end };
}

export function inferscopeTrace(opts: GenOptions = {}): Record<string, unknown> {
  const requests = opts.requests ?? 3;
  const kernels = opts.kernels ?? 3;
  const events: Ev[] = [];
  const scopes: Ev[] = [];
  const requestIds: string[] = [];
  let t = T0;
  for (let r = 0; r < requests; r++) {
    const q = requestEvents(r, t, kernels, events.length);
    events.push(...q.events);
    scopes.push(...q.scopes);
    requestIds.push(q.scopes[0].id as string);
    t = nextRequest(q.end);
  }
  scopes.unshift({ id: 'scope_inference', name: 'inference', parent_id: null, child_ids: requestIds, event_range: [0, events.length - 1] });
  const duration = (t - 1000 - T0) / 1000;
  return {
    format_version: '1.0',
    trace_metadata: { timestamp_created: '2025-12-27T10:35:12.456Z', duration_ms: duration, cuda_version: '12.0', python_version: '3.10.5', torch_version: '2.1.0', gpu_model: 'NVIDIA A100', hostname: 'inference-box-1' },
    system_info: { cpu_count: 16, cpu_model: 'Intel Xeon Platinum 8360Y', numa_nodes: 2, ram_gb: 256, gpu_count: 1 },
    events,
    relationships: { scopes },
  };
}

/** As Python's json.dump(obj, indent=2) writes it (the same layout as JSON.stringify with 2 spaces). */
export function pretty(v: unknown): string {
  return `${JSON.stringify(v, null, 2)}\n`;
}

/** The codes `faultyInferscope` plants, one mistake each, in the order of their positions. */
export const PLANTED_TRACE_CODES = [
  'inferscope.unsupported-version', 'inferscope.duration-mismatch', 'inferscope.schema', 'inferscope.end-before-start',
  'inferscope.wall-clock-mismatch', 'inferscope.duplicate-id', 'inferscope.kernel-overlap', 'inferscope.invalid-json',
  'inferscope.unknown-scope', 'inferscope.scope-containment', 'inferscope.event-range', 'inferscope.scope-cycle',
] as const;

/** A two-request trace with one planted mistake per trace diagnostic code. */
export function faultyInferscope(): string {
  const tr = inferscopeTrace({ requests: 2, kernels: 2 });
  const ev = tr.events as Ev[];
  const scopes = (tr.relationships as { scopes: Ev[] }).scopes;
  tr.format_version = '2.0';
  ev[0].duration_us = 1400;
  (ev[2].metadata as Ev).operation = 'mallocc';
  ev[3].timestamp_end_us = ev[3].timestamp_start_us;
  ev[3].duration_us = 0;
  ev[4].wall_clock_start = wallOf((ev[4].timestamp_start_us as number) + 5000);
  ev[9].id = 'tok_0';
  // Request 1's second stream-7 kernel starts inside its first one.
  const k = ev[15];
  k.timestamp_start_us = (ev[13].timestamp_start_us as number) + 400;
  k.wall_clock_start = wallOf(k.timestamp_start_us as number);
  k.duration_us = (k.timestamp_end_us as number) - (k.timestamp_start_us as number);
  (ev[17].metadata as Ev).throughput_gbps = 'NAN_PLACEHOLDER';
  (scopes[1].child_ids as string[]).push('scope_post_0');
  scopes[2].event_range = [0, 9];
  scopes[6].event_range = [13, 40];
  scopes.push({ id: 'scope_loop', name: 'loop', parent_id: 'scope_loop', child_ids: [], event_range: [0, 0] });
  return pretty(tr).replace('"NAN_PLACEHOLDER"', 'NaN');
}

/** The spec's §3.1 example with one mistake per analysis code (its percentages already sum to 114.3). */
export function faultyAnalysis(): string {
  return pretty({
    analysis_version: '1.0',
    summary: { end_to_end_latency_us: 87400, total_cpu_time_us: 31200, total_gpu_time_us: 24000, total_h2d_us: 18400, total_d2h_us: 8700, total_idle_us: 17500, framework_overhead_us: 13700 },
    timeline_breakdown: [
      { category: 'cpu_preprocessing', duration_us: 31200, percentage: 35.7, examples: ['tokenization', 'data_prep'] },
      { category: 'h2d_copy', duration_us: 18400, percentage: 21.0 },
      { category: 'gpu_compute', duration_us: 24100, percentage: 27.6 },
      { category: 'd2h_copy', duration_us: 8700, percentage: 10.0 },
      { category: 'idle', duration_us: 17500, percentage: 20.0 },
    ],
    bottleneck: { type: 'cpu_bound', primary_cause: 'cpu_preprocessing', confidence: 1.2, evidence: [] },
    suggestions: [{ priority: 'high', action: 'Increase batch size', rationale: 'Amortize H2D copy overhead', estimated_improvement_percent: 12 }],
  });
}
