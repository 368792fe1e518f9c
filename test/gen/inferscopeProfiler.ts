// GENERATED-LAYOUT GENERATOR: reproduces what InferScope's own `Profiler` writes, not the data
// model document. Read (never copied) from github.com/zhiyisun/InferScope:
//   src/inferscope/collectors/cpu.py  @ bbbe11f531dac044fd20649924bb3c28192f8e09 (cpu_call / cpu_return)
//   src/inferscope/api.py             @ bbbe11f531dac044fd20649924bb3c28192f8e09 (scope_enter / scope_exit)
//   src/inferscope/collectors/gpu.py  @ 78c4056e63a968b376d7b608727da9cbcd5571c8 (_inject_kernel_event, _inject_copy_event)
//   src/inferscope/profiler.py        @ e318ba1444118ae079856021de12e9b63c254328 (hooked tensor.to, get_unified_timeline)
//   src/inferscope/timeline/merger.py @ bbbe11f531dac044fd20649924bb3c28192f8e09 (global_ts_us, sync_error_us)
//   examples/demo_llm_inference.py    @ e318ba1444118ae079856021de12e9b63c254328 (json.dump({"events": …}, indent=2))
// No GPU machine was lent: every file this writes is generated, shaped as those sources write it.
//
// The workload is a GPT-2 greedy decode (Python 3.12, PyTorch 2.x, transformers) run under
// `Profiler.start()`: `scope()` blocks for tokenization, h2d_transfer, inference, d2h_transfer,
// decoding; inputs and a cached prefix moved with `tensor.to('cuda')` (the Profiler's hook writes an
// h2d_copy per call, its duration estimated as bytes / 12000 µs); every leaf module timed by a
// forward hook that syncs its CUDA events and calls `profiler.gpu._inject_kernel_event(module,
// µs, stream_id)` (as the demo injects `model_inference`), so each gpu_kernel is stamped when it
// has ended; sampling on a side stream; each new token copied back with `.to('cpu')` (d2h_copy).
// sys.settrace sees every Python call in between, less InferScope's collectors, files with `__`
// in their path, and dunder methods. Tracing stops inside `Profiler.stop()`, whose call is
// therefore never returned, as in every real trace.

type Ev = Record<string, unknown>;

export const INFERSCOPE_REPO = 'zhiyisun/InferScope';
export const INFERSCOPE_COMMIT = 'e318ba1444118ae079856021de12e9b63c254328';

export interface ProfilerGenOptions {
  /** Transformer blocks (GPT-2: 12). */
  layers?: number;
  /** Decode steps after the prefill (each one forward pass). */
  steps?: number;
  /** Prompts in the batch. */
  batch?: number;
  /** Written by `get_unified_timeline()` (sorted, with global_ts_us and sync_error_us) instead of the raw buffer. */
  unified?: boolean;
}

const THREAD = 140_319_245_678_400;
const SITE = '/home/user/.venv/lib/python3.12/site-packages';
const INFERSCOPE = '/home/user/InferScope/src/inferscope';
const WORKLOAD = '/home/user/gpt2_infer.py';
const MODULE_PY = `${SITE}/torch/nn/modules/module.py`;
const GPT2_PY = `${SITE}/transformers/models/gpt2/modeling_gpt2.py`;
const BASE_PY = `${SITE}/transformers/tokenization_utils_base.py`;
const FAST_PY = `${SITE}/transformers/tokenization_utils_fast.py`;
const STREAMS_PY = `${SITE}/torch/cuda/streams.py`;

/** A deterministic generator of small variations (durations), so fixtures are stable. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

class Writer {
  /** time.monotonic_ns() */
  ns = 259_200_117_305_412;
  readonly events: Ev[] = [];
  private readonly rand = rng(27);
  private readonly stack: string[] = [];

  get us(): number {
    return Math.floor(this.ns / 1000);
  }

  tick(us: number): void {
    // Sub-µs jitter: timestamp_ns carries it, timestamp_us floors it.
    this.ns += Math.round(us * 1000 + this.rand() * 900);
  }

  vary(us: number): number {
    return Math.round(us * (0.85 + 0.3 * this.rand()));
  }

  call(name: string, filename: string, lineno: number, module: string): void {
    this.tick(1.5);
    const t = this.us;
    this.events.push({
      type: 'cpu_call', name, timestamp_start_us: t, timestamp_end_us: t, filename, lineno, thread_id: THREAD,
      metadata: { event: 'call', module },
    });
    this.stack.push(name);
  }

  ret(returnType: string): void {
    this.tick(1);
    const name = this.stack.pop()!;
    this.events.push({ type: 'cpu_return', name, timestamp_us: this.us, thread_id: THREAD, return_type: returnType, metadata: { event: 'return' } });
  }

  /** A traced function that calls nothing traced. */
  leaf(name: string, filename: string, lineno: number, module: string, returnType: string, us = 2): void {
    this.call(name, filename, lineno, module);
    this.tick(us);
    this.ret(returnType);
  }

  scopeEvent(type: 'scope_enter' | 'scope_exit', name: string): void {
    this.tick(0.5);
    this.events.push({ type, name, timestamp_us: this.us, timestamp_ns: this.ns });
  }

  /** `with scope(name): body()` as settrace sees it: contextlib's helper, then the generator resumed on enter and on exit. */
  scope(name: string, body: () => void): void {
    this.leaf('helper', '/usr/lib/python3.12/contextlib.py', 299, 'contextlib', '_GeneratorContextManager');
    this.call('scope', `${INFERSCOPE}/api.py`, 32, 'inferscope.api');
    this.leaf('get_global_profiler', `${INFERSCOPE}/api.py`, 25, 'inferscope.api', 'Profiler', 1);
    this.scopeEvent('scope_enter', name);
    this.ret('None');
    body();
    this.call('scope', `${INFERSCOPE}/api.py`, 64, 'inferscope.api');
    this.scopeEvent('scope_exit', name);
    this.ret('None');
  }

  kernel(name: string, durationUs: number, streamId: number | null): void {
    this.events.push({ type: 'gpu_kernel', name, timestamp_us: this.us, duration_us: durationUs, stream_id: streamId, metadata: { source: 'synthetic' } });
  }

  /** `tensor.to(device)` through the Profiler's hook: the copy is stamped when `.to()` has returned. */
  copy(direction: 'h2d' | 'd2h', bytes: number): void {
    this.call('hooked_tensor_to', `${INFERSCOPE}/profiler.py`, 214, 'inferscope.profiler');
    const duration = bytes > 0 ? Math.max(1, Math.floor(bytes / 12000)) : 100;
    this.tick(duration + 4);
    this.events.push({
      type: direction === 'h2d' ? 'h2d_copy' : 'd2h_copy', name: `tensor_${direction}_${bytes}`, timestamp_us: this.us, duration_us: duration, bytes,
      metadata: { source: 'synthetic', bandwidth_estimate_gbps: 12 },
    });
    this.ret('Tensor');
  }
}

/** One leaf module called: its forward launches the kernel, the workload's hook waits for it and injects it. */
function leafModule(w: Writer, path: string, forwardFile: string, forwardLine: number, forwardModule: string, inner: [string, string, number, string] | undefined, kernelUs: number, stream: number): void {
  w.call('_wrapped_call_impl', MODULE_PY, 1773, 'torch.nn.modules.module');
  w.call('_call_impl', MODULE_PY, 1784, 'torch.nn.modules.module');
  w.call('inner', MODULE_PY, 1827, 'torch.nn.modules.module');
  w.call('forward', forwardFile, forwardLine, forwardModule);
  if (inner) w.leaf(inner[0], inner[1], inner[2], inner[3], 'Tensor', 3);
  w.tick(2);
  const launched = w.ns;
  w.ret('Tensor');
  w.call('_time_kernel', WORKLOAD, 41, '__main__');
  w.call('synchronize', STREAMS_PY, 227, 'torch.cuda.streams');
  // Blocks until the kernel is done.
  w.ns = Math.max(w.ns, launched + kernelUs * 1000);
  w.ret('None');
  w.leaf('elapsed_time', STREAMS_PY, 214, 'torch.cuda.streams', 'float', 1);
  w.tick(1);
  w.kernel(path, kernelUs, stream);
  w.ret('None');
  w.ret('Tensor');
  w.ret('Tensor');
  w.ret('Tensor');
}

/** One forward pass of GPT-2 (`tokens` rows through the model): per block ln_1, attention (3 kernels), ln_2, MLP (3). */
function forwardPass(w: Writer, layers: number, scale: number): void {
  const nn = `${SITE}/torch/nn/modules`;
  const fn = `${SITE}/torch/nn/functional.py`;
  const conv = `${SITE}/transformers/pytorch_utils.py`;
  w.call('_wrapped_call_impl', MODULE_PY, 1773, 'torch.nn.modules.module');
  w.call('_call_impl', MODULE_PY, 1784, 'torch.nn.modules.module');
  w.call('forward', GPT2_PY, 1189, 'transformers.models.gpt2.modeling_gpt2');
  w.call('_wrapped_call_impl', MODULE_PY, 1773, 'torch.nn.modules.module');
  w.call('_call_impl', MODULE_PY, 1784, 'torch.nn.modules.module');
  w.call('forward', GPT2_PY, 869, 'transformers.models.gpt2.modeling_gpt2');
  w.leaf('get_head_mask', `${SITE}/transformers/modeling_utils.py`, 1502, 'transformers.modeling_utils', 'list', 3);
  leafModule(w, 'transformer.wte', `${nn}/sparse.py`, 189, 'torch.nn.modules.sparse', ['embedding', fn, 2475, 'torch.nn.functional'], w.vary(18 * scale), 0);
  for (let l = 0; l < layers; l++) {
    const h = `transformer.h.${l}`;
    w.call('_wrapped_call_impl', MODULE_PY, 1773, 'torch.nn.modules.module');
    w.call('_call_impl', MODULE_PY, 1784, 'torch.nn.modules.module');
    w.call('forward', GPT2_PY, 386, 'transformers.models.gpt2.modeling_gpt2');
    leafModule(w, `${h}.ln_1`, `${nn}/normalization.py`, 216, 'torch.nn.modules.normalization', ['layer_norm', fn, 2901, 'torch.nn.functional'], w.vary(22 * scale), 0);
    leafModule(w, `${h}.attn.c_attn`, conv, 110, 'transformers.pytorch_utils', undefined, w.vary(95 * scale), 0);
    leafModule(w, `${h}.attn`, GPT2_PY, 275, 'transformers.models.gpt2.modeling_gpt2', ['sdpa_attention_forward', `${SITE}/transformers/integrations/sdpa_attention.py`, 20, 'transformers.integrations.sdpa_attention'], w.vary(120 * scale), 0);
    leafModule(w, `${h}.attn.c_proj`, conv, 110, 'transformers.pytorch_utils', undefined, w.vary(40 * scale), 0);
    leafModule(w, `${h}.ln_2`, `${nn}/normalization.py`, 216, 'torch.nn.modules.normalization', ['layer_norm', fn, 2901, 'torch.nn.functional'], w.vary(22 * scale), 0);
    leafModule(w, `${h}.mlp.c_fc`, conv, 110, 'transformers.pytorch_utils', undefined, w.vary(150 * scale), 0);
    leafModule(w, `${h}.mlp.act`, `${SITE}/transformers/activations.py`, 55, 'transformers.activations', undefined, w.vary(30 * scale), 0);
    leafModule(w, `${h}.mlp.c_proj`, conv, 110, 'transformers.pytorch_utils', undefined, w.vary(150 * scale), 0);
    w.ret('tuple');
    w.ret('tuple');
    w.ret('tuple');
  }
  leafModule(w, 'transformer.ln_f', `${nn}/normalization.py`, 216, 'torch.nn.modules.normalization', ['layer_norm', fn, 2901, 'torch.nn.functional'], w.vary(22 * scale), 0);
  w.ret('BaseModelOutputWithPastAndCrossAttentions');
  w.ret('BaseModelOutputWithPastAndCrossAttentions');
  w.ret('BaseModelOutputWithPastAndCrossAttentions');
  leafModule(w, 'lm_head', `${nn}/linear.py`, 124, 'torch.nn.modules.linear', undefined, w.vary(260 * scale), 0);
  w.ret('CausalLMOutputWithCrossAttentions');
  w.ret('CausalLMOutputWithCrossAttentions');
  w.ret('CausalLMOutputWithCrossAttentions');
}

/** The events of one GPT-2 run, in the order the trace buffer received them. */
export function profilerEvents(opts: ProfilerGenOptions = {}): Ev[] {
  const layers = opts.layers ?? 12;
  const steps = opts.steps ?? 8;
  const batch = opts.batch ?? 8;
  const prompt = 128;
  const w = new Writer();
  // profiler.start(): its own frame predates sys.settrace; `_install_gpu_hooks` is the first call seen.
  w.leaf('_install_gpu_hooks', `${INFERSCOPE}/profiler.py`, 177, 'inferscope.profiler', 'None', 40);
  w.scope('tokenization', () => {
    w.call('_call_one', BASE_PY, 2963, 'transformers.tokenization_utils_base');
    w.call('batch_encode_plus', BASE_PY, 3146, 'transformers.tokenization_utils_base');
    w.leaf('_get_padding_truncation_strategies', BASE_PY, 2736, 'transformers.tokenization_utils_base', 'tuple', 6);
    w.call('_batch_encode_plus', FAST_PY, 525, 'transformers.tokenization_utils_fast');
    w.leaf('set_truncation_and_padding', FAST_PY, 446, 'transformers.tokenization_utils_fast', 'None', 4);
    w.tick(w.vary(900));
    for (let b = 0; b < batch; b++) w.leaf('_convert_encoding', FAST_PY, 269, 'transformers.tokenization_utils_fast', 'tuple', w.vary(12));
    w.leaf('convert_to_tensors', BASE_PY, 719, 'transformers.tokenization_utils_base', 'BatchEncoding', w.vary(60));
    w.ret('BatchEncoding');
    w.ret('BatchEncoding');
    w.ret('BatchEncoding');
  });
  w.scope('h2d_transfer', () => {
    w.copy('h2d', batch * prompt * 8);
    w.copy('h2d', batch * prompt * 8);
    // A cached prefix (key and value per block, fp16 [1, 12, 128, 64]) restored from host memory.
    for (let l = 0; l < layers; l++) {
      w.copy('h2d', 12 * 128 * 64 * 2);
      w.copy('h2d', 12 * 128 * 64 * 2);
    }
  });
  let generated = prompt;
  w.scope('inference', () => {
    w.call('generate_greedy', WORKLOAD, 58, '__main__');
    for (let s = 0; s <= steps; s++) {
      // The prefill runs the whole prompt (batch × 128 rows), a decode step one row per prompt.
      forwardPass(w, layers, s === 0 ? 12 : 4);
      w.call('sample_next', WORKLOAD, 49, '__main__');
      w.tick(3);
      const launched = w.ns;
      w.leaf('synchronize', STREAMS_PY, 227, 'torch.cuda.streams', 'None', 1);
      const argmax = w.vary(14);
      w.ns = Math.max(w.ns, launched + argmax * 1000);
      w.leaf('elapsed_time', STREAMS_PY, 214, 'torch.cuda.streams', 'float', 1);
      w.kernel('argmax', argmax, 3);
      w.ret('Tensor');
      // Streamed output: each new token back to the host.
      w.copy('d2h', batch * 8);
      generated++;
    }
    w.ret('Tensor');
  });
  w.scope('d2h_transfer', () => w.copy('d2h', batch * generated * 8));
  w.scope('decoding', () => {
    w.call('batch_decode', BASE_PY, 3811, 'transformers.tokenization_utils_base');
    for (let b = 0; b < batch; b++) {
      w.call('decode', BASE_PY, 3845, 'transformers.tokenization_utils_base');
      w.call('_decode', FAST_PY, 658, 'transformers.tokenization_utils_fast');
      w.tick(w.vary(45));
      w.leaf('clean_up_tokenization', BASE_PY, 3900, 'transformers.tokenization_utils_base', 'str', 6);
      w.ret('str');
      w.ret('str');
    }
    w.ret('list');
  });
  // profiler.stop(): traced until the collector's stop() clears sys.settrace, so `stop` never returns.
  w.call('stop', `${INFERSCOPE}/profiler.py`, 73, 'inferscope.profiler');
  w.leaf('_uninstall_gpu_hooks', `${INFERSCOPE}/profiler.py`, 306, 'inferscope.profiler', 'None', 5);
  return w.events;
}

/** What `Profiler.get_unified_timeline()` returns for those events (TimelineMerger, slope 1, intercept 0). */
export function unifiedTimeline(events: readonly Ev[]): Ev[] {
  const str = (e: Ev) => String(e.type ?? '');
  const cpu = events.filter((e) => str(e).startsWith('cpu_'));
  const gpu = events.filter((e) => !str(e).startsWith('cpu_'));
  const merged = [...cpu, ...gpu].map((e) => ({ ...e, global_ts_us: (e.timestamp_start_us || e.timestamp_us) as number, sync_error_us: SYNC_ERROR }));
  // Stable, as Python's sort is.
  return merged.sort((a, b) => a.global_ts_us - b.global_ts_us);
}

/** merger.py's error bound, the float 100.0 (written `100.0` by Python, see `pythonJson`). */
const SYNC_ERROR = 100;

/** As Python's `json.dump(v, f, indent=2)` writes it (ASCII only: every string here is). */
export function pythonJson(v: unknown): string {
  // sync_error_us is a float, the last key of its event: Python keeps its decimal point.
  return JSON.stringify(v, null, 2).replace(/"sync_error_us": 100\n/g, '"sync_error_us": 100.0\n');
}

/** The file the demo's `SimpleTraceBuffer.save` writes: `{"events": [...]}`, indented 2, no newline at the end. */
export function profilerTrace(opts: ProfilerGenOptions = {}): string {
  const events = profilerEvents(opts);
  return pythonJson({ events: opts.unified ? unifiedTimeline(events) : events });
}

/** The committed fixtures (test/fixtures/real/inferscope/), each what the generator writes. */
export const PROFILER_FIXTURES: Record<string, () => string> = {
  'test/fixtures/real/inferscope/gpt2_trace.json': () => profilerTrace({ layers: 1, steps: 1, batch: 2 }),
  'test/fixtures/real/inferscope/gpt2_unified_trace.json': () => profilerTrace({ layers: 1, steps: 1, batch: 2, unified: true }),
};
