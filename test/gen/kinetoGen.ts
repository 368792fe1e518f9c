/**
 * PyTorch profiler traces as PyTorch 2.x writes them through Kineto's `ChromeTraceLogger`
 * (pytorch/kineto libkineto/src/output_json.cpp at 002d99198b93): the pretty-printed layout
 * (a first empty line, then `  {`), `schemaVersion`, `deviceProperties`, the metadata PyTorch adds
 * (`distributedInfo`, `with_stack`...), `displayTimeUnit: "ms"`, `baseTimeNanoseconds`, then
 * `traceEvents` with `ts`/`dur` as `µs.nnn` relative to the base, each `X` followed by its flow
 * event, the `Spans`/`Traces` string pids, `M` events at the end with ts 0, `Record Window End`,
 * `traceName`. The order is the profiler's: CPU activities by start time, then each CUPTI buffer
 * with the device records (kernels, memcpy, memset: each with its `ac2g` `f`, `"bp": "e"`) before
 * the runtime records (each launch with its `s`), which puts every `f` before its `s` in the file.
 * The profiling window cuts a few flows: kernels at its start launched before it (`f` alone) and
 * launches at its end whose kernels ran after it (`s` alone). Generated, deterministic: no GPU ran.
 */

interface Act {
  ph: 'X' | 'i';
  cat: string;
  name: string;
  pid: number;
  tid: number;
  /** ns, relative to baseTimeNanoseconds. */
  ts: number;
  dur: number;
  args?: string;
  flow?: { ph: 's' | 'f'; id: number; cat: 'ac2g' | 'fwdbwd' };
}

export interface KinetoTrace {
  text: string;
  /** Flows with both ends in the file (each one arrow). */
  pairedFlows: number;
  /** Flow events whose partner the profiling window cut. */
  cutFlowEvents: number;
}

export const PID = 41873, MAIN = 41873, AUTOGRAD = 41990, GPU = 0;
const BASE_NS = 1_764_302_400_000_000_000;

/** `ts`/`dur` as Kineto prints them: whole µs, a dot, three digits of ns. */
const nsDigits = (ns: number) => `${Math.floor(ns / 1000)}.${String(ns % 1000).padStart(3, '0')}`;
/** Kineto of 2021 (pytorch/kineto output_json.cpp at acf03f80228f): whole µs since the epoch, no base. */
const LEGACY_BASE_US = 1_633_046_400_000_000;
const wholeUs = (ns: number) => String(LEGACY_BASE_US + Math.floor(ns / 1000));
/** The time format of the trace being written (a generator sets it for the one it writes). */
let us = nsDigits;

function xText(a: Act): string {
  const args = a.args === undefined ? '' : `,\n    "args": {\n      ${a.args}\n    }`;
  if (a.ph === 'i') {
    return `\n  {\n    "ph": "i", "cat": "${a.cat}", "s": "t", "name": "${a.name}",\n    "pid": ${a.pid}, "tid": ${a.tid},\n    "ts": ${us(a.ts)},\n    "args": {\n      ${a.args ?? ''}\n    }\n  },`;
  }
  return `\n  {\n    "ph": "X", "cat": "${a.cat}", "name": "${a.name}", "pid": ${a.pid}, "tid": ${a.tid},\n    "ts": ${us(a.ts)}, "dur": ${us(a.dur)}${args}\n  },`;
}

function flowText(a: Act): string {
  const f = a.flow!;
  return `\n  {\n    "ph": "${f.ph}", "id": ${f.id}, "pid": ${a.pid}, "tid": ${a.tid}, "ts": ${us(a.ts)},\n    "cat": "${f.cat}", "name": "${f.cat}"${f.ph === 'f' ? ', "bp": "e"' : ''}\n  },`;
}

const KERNEL_ARGS = (corr: number, ext: number, stream: number, grid: number[], block: number[], regs: number) =>
  `"External id": ${ext},\n      "queued": 0, "device": 0, "context": 1,\n      "stream": ${stream}, "correlation": ${corr},\n      "registers per thread": ${regs},\n      "shared memory": 0,\n      "blocks per SM": ${(grid[0] * grid[1] / 132).toFixed(6).replace(/0+$/, '').replace(/\.$/, '')},\n      "warps per SM": ${(grid[0] * grid[1] * block[0] / 32 / 132).toFixed(6).replace(/0+$/, '').replace(/\.$/, '')},\n      "grid": [${grid.join(', ')}],\n      "block": [${block.join(', ')}],\n      "est. achieved occupancy %": 0`;

/** One workload of launches: what the CPU does and what lands on the GPU. */
export class Recorder {
  readonly cpu: Act[] = [];
  /** CUPTI buffers: each with its device records and its runtime records. */
  readonly buffers: { device: Act[]; runtime: Act[] }[] = [];
  private corr = 1;
  private ext = 1;
  private python = 1;
  readonly streamFree = new Map<number, number>();
  paired = 0;
  cut = 0;

  newBuffer(): void {
    this.buffers.push({ device: [], runtime: [] });
  }

  private get buf() {
    return this.buffers[this.buffers.length - 1];
  }

  op(cat: string, name: string, tid: number, ts: number, dur: number, extra = ''): number {
    const ext = this.ext++;
    this.cpu.push({ ph: 'X', cat, name, pid: PID, tid, ts, dur, args: `"External id": ${ext},"Record function id": 0, "Ev Idx": ${ext - 1}${extra}` });
    return ext;
  }

  py(name: string, ts: number, dur: number, parent: number): number {
    const id = this.python++;
    this.cpu.push({ ph: 'X', cat: 'python_function', name, pid: PID, tid: MAIN, ts, dur, args: `"Python parent id": ${parent}, "Python id": ${id}, "Python thread": 0` });
    return id;
  }

  memory(ts: number, bytes: number, total: number): void {
    this.cpu.push({ ph: 'i', cat: 'cpu_instant_event', name: '[memory]', pid: PID, tid: MAIN, ts, dur: 0, args: `"Total Reserved": 20971520, "Total Allocated": ${total}, "Bytes": ${bytes}, "Addr": ${140_230_000_000_000 + total}, "Device Id": 0, "Device Type": 1` });
  }

  /**
   * A launch at `ts` on thread `tid` of `kernel` on `stream`; `window` says which end the profiling
   * window keeps ('both', 'device' only: its launch was before the window, 'runtime' only: its kernel after).
   */
  launch(o: { api: string; cat?: string; cbid: number; tid: number; ts: number; ext: number; kernel: string; kcat?: string; stream: number; kdur: number; grid?: number[]; block?: number[]; regs?: number; bytes?: number; window?: 'both' | 'device' | 'runtime' }): number {
    const corr = this.corr++;
    const window = o.window ?? 'both';
    const apiDur = 4_117 + (corr % 7) * 311;
    if (window !== 'device') {
      this.buf.runtime.push({ ph: 'X', cat: o.cat ?? 'cuda_runtime', name: o.api, pid: PID, tid: o.tid, ts: o.ts, dur: apiDur, args: `"External id": ${o.ext},"cbid": ${o.cbid}, "correlation": ${corr}`, flow: { ph: 's', id: corr, cat: 'ac2g' } });
    }
    const start = Math.max(o.ts + 6_250 + (corr % 5) * 173, this.streamFree.get(o.stream) ?? 0);
    this.streamFree.set(o.stream, start + o.kdur + 1_024);
    if (window !== 'runtime') {
      const kcat = o.kcat ?? 'kernel';
      const args = kcat === 'kernel'
        ? KERNEL_ARGS(corr, o.ext, o.stream, o.grid ?? [132, 1, 1], o.block ?? [256, 1, 1], o.regs ?? 32)
        : `"External id": ${o.ext},\n      "device": 0, "context": 1,\n      "stream": ${o.stream}, "correlation": ${corr},\n      "bytes": ${o.bytes ?? 0}, "memory bandwidth (GB/s)": ${((o.bytes ?? 0) / o.kdur).toFixed(3)}`;
      this.buf.device.push({ ph: 'X', cat: kcat, name: o.kernel, pid: GPU, tid: o.stream, ts: start, dur: o.kdur, args, flow: { ph: 'f', id: corr, cat: 'ac2g' } });
    }
    if (window === 'both') this.paired++;
    else this.cut++;
    return start;
  }

  sync(tid: number, ts: number, ext: number): void {
    this.buf.runtime.push({ ph: 'X', cat: 'cuda_runtime', name: 'cudaStreamSynchronize', pid: PID, tid, ts, dur: 9_870, args: `"External id": ${ext},"cbid": 131, "correlation": ${this.corr++}` });
  }

  /** Device records so far, so a step's GPU annotation spans the kernels since. */
  mark(): number {
    return this.buffers.reduce((n, b) => n + b.device.length, 0);
  }

  /** The annotation as Kineto puts it on stream 7: over that stream's records since `mark`. */
  gpuAnnotation(name: string, mark: number): void {
    const since = this.buffers.flatMap((b) => b.device).slice(mark).filter((a) => a.tid === 7);
    if (!since.length) return;
    const ts = Math.min(...since.map((a) => a.ts)), end = Math.max(...since.map((a) => a.ts + a.dur));
    // Kineto starts a GPU user annotation 1 ns early and ends it 1 ns late.
    this.buf.device.push({ ph: 'X', cat: 'gpu_user_annotation', name, pid: GPU, tid: 7, ts: ts - 1, dur: end - ts + 2, args: `"External id": ${this.ext - 1}` });
  }
}

function legacyHeader(): string {
  return `\n{\n  "schemaVersion": 1,\n  "deviceProperties": [\n    {\n      "id": 0, "name": "Tesla V100-SXM2-16GB", "totalGlobalMem": 16945512448,\n      "computeMajor": 7, "computeMinor": 0,\n      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,\n      "regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32,\n      "sharedMemPerBlock": 49152, "sharedMemPerMultiprocessor": 98304,\n      "numSms": 80, "sharedMemPerBlockOptin": 98304\n    }\n  ],\n  "traceEvents": [`;
}

function header(meta: Record<string, string>): string {
  const metaText = Object.entries(meta).map(([k, v]) => `\n      "${k}": ${v},`).join('');
  return `\n  {\n    "schemaVersion": 1,\n    "deviceProperties": [\n      {\n      "id": 0, "name": "NVIDIA H200", "totalGlobalMem": 150754820096,\n      "computeMajor": 9, "computeMinor": 0,\n      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,\n      "regsPerBlock": 65536, "warpSize": 32,\n      "sharedMemPerBlock": 49152, "numSms": 132\n    , "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472\n      }\n    ],${metaText}\n  "displayTimeUnit": "ms",\n  "baseTimeNanoseconds": ${BASE_NS},\n  "traceEvents": [`;
}

function metadataEvents(threads: [number, number, string][], spans: string): string {
  const ts = us === wholeUs ? us(0) : '0.000';
  const m = (name: string, pid: number | string, tid: number, key: string, value: string) =>
    `\n  {\n    "name": "${name}", "ph": "M", "ts": ${ts}, "pid": ${pid}, "tid": ${tid},\n    "args": {\n      "${key}": ${value}\n    }\n  },`;
  let out = '';
  out += m('process_name', PID, 0, 'name', '"python3"') + m('process_labels', PID, 0, 'labels', '""') + m('process_sort_index', PID, 0, 'sort_index', `${PID}`);
  out += m('process_name', GPU, 0, 'name', '"GPU 0"') + m('process_labels', GPU, 0, 'labels', '"NVIDIA H200"') + m('process_sort_index', GPU, 0, 'sort_index', `${0x1000000}`);
  for (const [pid, tid, name] of threads) out += m('thread_name', pid, tid, 'name', `"${name}"`) + m('thread_sort_index', pid, tid, 'sort_index', `${tid}`);
  return spans + out;
}

export function assemble(r: Recorder, meta: Record<string, string>, threads: [number, number, string][], span: { start: number; end: number; iteration: number }, traceName: string): string {
  let text = us === wholeUs ? legacyHeader() : header(meta);
  const spans = `\n  {\n    "ph": "X", "cat": "Trace", "ts": ${us(span.start)}, "dur": ${us(span.end - span.start)},\n    "pid": "Spans", "tid": "PyTorch Profiler",\n    "name": "PyTorch Profiler (${span.iteration})",\n    "args": {\n      "Op count": 0\n    }\n  },\n  {\n    "name": "process_sort_index", "ph": "M", "ts": ${us(span.start)},\n    "pid": "Spans", "tid": 0,\n    "args": {\n      "sort_index": ${0x20000000}\n    }\n  },\n  {\n    "name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g",\n    "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": ${us(span.start)}\n  },`;
  text += spans;
  for (const a of r.cpu.slice().sort((x, y) => x.ts - y.ts || y.dur - x.dur)) text += xText(a) + (a.flow ? flowText(a) : '');
  for (const b of r.buffers) {
    for (const a of b.device) text += xText(a) + (a.flow ? flowText(a) : '');
    for (const a of b.runtime) text += xText(a) + (a.flow ? flowText(a) : '');
  }
  text += metadataEvents(threads, '');
  text += `\n  {\n    "name": "Record Window End", "ph": "i", "s": "g",\n    "pid": "", "tid": "", "ts": ${us(span.end + 2_000)}\n  }\n  ],\n  "traceName": "${traceName}"\n}`;
  return text;
}

export const META = {
  distributedInfo: '{"backend": "nccl", "rank": 0, "world_size": 1, "pg_count": 1, "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": 1, "ranks": [0]}], "nccl_version": "2.27.5"}',
  with_stack: '1',
  record_shapes: '1',
  profile_memory: '1',
  cupti_version: '26',
  cuda_runtime_version: '12080',
  cuda_driver_version: '12080',
};

/**
 * An eager training step of a small transformer block profiled with
 * `torch.profiler.profile(activities=[CPU, CUDA], schedule=schedule(wait=1, warmup=1, active=2),
 * record_shapes=True, profile_memory=True, with_stack=True)`: `ProfilerStep#2` and `#3`, forward
 * on the main thread, backward on the autograd thread (`fwdbwd` flows), the optimizer, a host-to-device
 * copy, a memset and a device-to-host copy on a second stream.
 */
export function kinetoEagerTrace(o: { legacy?: boolean } = {}): KinetoTrace {
  us = o.legacy ? wholeUs : nsDigits;
  try {
    return eager(!o.legacy);
  } finally {
    us = nsDigits;
  }
}

/**
 * The eager step as a 2021 Kineto wrote it (pytorch/kineto output_json.cpp at acf03f80228f): the
 * first line empty then `{`, no `displayTimeUnit` or `baseTimeNanoseconds`, whole µs since the epoch,
 * each `ac2g` `f` before its `s` already; no flow cut (a profile of whole steps).
 */
export function kinetoLegacyTrace(): KinetoTrace {
  return kinetoEagerTrace({ legacy: true });
}

function eager(cut: boolean): KinetoTrace {
  const r = new Recorder();
  let t = 3_118_406_217; // ns after the base: µs values of seven digits, as on a real run
  const spanStart = t;
  r.newBuffer();
  // Two kernels of the step before the window: their launches fell before it.
  if (cut) r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t - 40_000, ext: 0, kernel: 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)', stream: 7, kdur: 3_104, window: 'device' });
  if (cut) r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t - 31_000, ext: 0, kernel: 'void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)', stream: 7, kdur: 5_311, window: 'device' });
  let total = 8_388_608;
  const layers = ['q_proj', 'k_proj', 'v_proj', 'out_proj', 'fc1', 'fc2'];
  for (const step of [2, 3]) {
    if (step === 3) r.newBuffer();
    const stepStart = t, gpuMark = r.mark();
    const stepExt = r.op('user_annotation', `ProfilerStep#${step}`, MAIN, t, 0);
    const stepAct = r.cpu[r.cpu.length - 1];
    const root = r.py('train.py(48): <module>', t + 1_000, 0, 0);
    const rootAct = r.cpu[r.cpu.length - 1];
    t += 2_000;
    // Input to the GPU.
    const toExt = r.op('cpu_op', 'aten::to', MAIN, t, 61_000, ', "Input Dims": [[32, 128, 256], [], [], [], [], [], [], []], "Input type": ["float", "ScalarType", "Layout", "Device", "", "Scalar", "Scalar", ""]');
    r.launch({ api: 'cudaMemcpyAsync', cbid: 41, tid: MAIN, ts: t + 20_000, ext: toExt, kernel: 'Memcpy HtoD (Pageable -> Device)', kcat: 'gpu_memcpy', stream: 7, kdur: 27_406, bytes: 4_194_304 });
    r.memory(t + 5_000, 4_194_304, (total += 4_194_304));
    t += 64_000;
    const fwd = r.py('nn.Module: TinyBlock_0', t, 0, root);
    const fwdAct = r.cpu[r.cpu.length - 1];
    const seqBase = step * 100;
    const fwdOps: number[] = [];
    for (const [k, layer] of layers.entries()) {
      r.py(`torch/nn/modules/linear.py(125): forward`, t + 300, 37_200, fwd);
      const lin = r.op('cpu_op', 'aten::linear', MAIN, t + 1_000, 36_000, `, "Input Dims": [[32, 128, 256], [256, 256], [256]], "Input type": ["float", "float", "float"], "Sequence number": ${seqBase + k}, "Fwd thread id": 0`);
      const addmm = r.op('cpu_op', 'aten::addmm', MAIN, t + 4_000, 30_000, `, "Input Dims": [[256], [4096, 256], [256, 256], [], []], "Input type": ["float", "float", "float", "Scalar", "Scalar"], "Sequence number": ${seqBase + k}, "Fwd thread id": 0`);
      // fwdbwd: the forward op starts the flow its backward ends.
      r.cpu[r.cpu.length - 1].flow = { ph: 's', id: seqBase + k + 1, cat: 'fwdbwd' };
      fwdOps.push(addmm);
      r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t + 14_000, ext: addmm, kernel: 'sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas', stream: 7, kdur: 11_232 + k * 97, grid: [32, 2, 1], block: [128, 1, 1], regs: 168 });
      r.memory(t + 6_000, 4_194_304, (total += 4_194_304));
      void lin;
      if (layer === 'v_proj') {
        const sm = r.op('cpu_op', 'aten::_softmax', MAIN, t + 38_000, 12_000, ', "Input Dims": [[32, 128, 128], [], []], "Input type": ["float", "Scalar", "Scalar"]');
        r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t + 42_000, ext: sm, kernel: 'void (anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, (anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)', stream: 7, kdur: 6_980, grid: [4096, 1, 1], block: [128, 1, 1], regs: 40 });
        t += 14_000;
      }
      if (layer === 'out_proj' || layer === 'fc2') {
        const ln = r.op('cpu_op', 'aten::native_layer_norm', MAIN, t + 38_000, 15_000, ', "Input Dims": [[32, 128, 256], [], [256], [256], []], "Input type": ["float", "", "float", "float", "Scalar"]');
        r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t + 44_000, ext: ln, kernel: 'void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, float const*, float const*, float*, float*, float*)', stream: 7, kdur: 4_415, grid: [4096, 1, 1], block: [256, 1, 1], regs: 38 });
        t += 17_000;
      }
      if (layer === 'fc1') {
        const gelu = r.op('cpu_op', 'aten::gelu', MAIN, t + 38_000, 9_000, ', "Input Dims": [[32, 128, 1024], []], "Input type": ["float", ""]');
        r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t + 41_000, ext: gelu, kernel: 'void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)', stream: 7, kdur: 8_113, grid: [4096, 1, 1], block: [128, 1, 1], regs: 22 });
        t += 11_000;
      }
      t += 40_000;
    }
    fwdAct.dur = t - fwdAct.ts;
    // Loss and backward on the autograd thread.
    const loss = r.op('cpu_op', 'aten::mse_loss', MAIN, t, 20_000, ', "Input Dims": [[32, 128, 256], [32, 128, 256], []], "Input type": ["float", "float", "Scalar"]');
    r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t + 5_000, ext: loss, kernel: 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)', stream: 7, kdur: 9_204, grid: [128, 1, 1], block: [32, 16, 1], regs: 32 });
    r.py('torch/_tensor.py(626): backward', t + 22_000, 0, root);
    const bwAct = r.cpu[r.cpu.length - 1];
    const bwStart = t + 25_000;
    t = bwStart;
    for (let k = layers.length - 1; k >= 0; k--) {
      r.op('cpu_op', 'autograd::engine::evaluate_function: AddmmBackward0', AUTOGRAD, t, 44_000);
      r.op('cpu_op', 'AddmmBackward0', AUTOGRAD, t + 1_000, 41_000, `, "Sequence number": ${seqBase + k}, "Fwd thread id": 1`);
      r.cpu[r.cpu.length - 1].flow = { ph: 'f', id: seqBase + k + 1, cat: 'fwdbwd' };
      const mm = r.op('cpu_op', 'aten::mm', AUTOGRAD, t + 3_000, 15_000, ', "Input Dims": [[4096, 256], [256, 256]], "Input type": ["float", "float"]');
      r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: AUTOGRAD, ts: t + 8_000, ext: mm, kernel: 'sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas', stream: 7, kdur: 12_870 + k * 41, grid: [32, 2, 1], block: [128, 1, 1], regs: 168 });
      const mm2 = r.op('cpu_op', 'aten::mm', AUTOGRAD, t + 20_000, 15_000, ', "Input Dims": [[256, 4096], [4096, 256]], "Input type": ["float", "float"]');
      r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: AUTOGRAD, ts: t + 25_000, ext: mm2, kernel: 'sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize64x128x32_warpgroupsize1x1x1_execute_segment_k_on_kernel__5x_cublas', stream: 7, kdur: 14_052, grid: [4, 2, 8], block: [128, 1, 1], regs: 154 });
      t += 46_000;
    }
    bwAct.dur = t - bwAct.ts;
    // Optimizer: one fused foreach kernel, a memset of the grads on the side stream.
    const opt = r.op('user_annotation', 'Optimizer.step#SGD.step', MAIN, t, 34_000);
    const fe = r.op('cpu_op', 'aten::_foreach_add_', MAIN, t + 2_000, 20_000, ', "Input Dims": [[], [], []], "Input type": ["TensorList", "TensorList", "Scalar"]');
    // The last launches of the window: their kernels ran after it stopped.
    const lastStep = step === 3 && cut;
    r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t + 9_000, ext: fe, kernel: 'void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)', stream: 7, kdur: 21_440, grid: [320, 1, 1], block: [512, 1, 1], regs: 30, window: lastStep ? 'runtime' : 'both' });
    const zero = r.op('cpu_op', 'aten::zero_', MAIN, t + 24_000, 8_500, ', "Input Dims": [[256, 256]], "Input type": ["float"]');
    r.launch({ api: 'cudaMemsetAsync', cbid: 51, tid: MAIN, ts: t + 26_000, ext: zero, kernel: 'Memset (Device)', kcat: 'gpu_memset', stream: 20, kdur: 1_312, bytes: 262_144, window: lastStep ? 'runtime' : 'both' });
    void opt;
    t += 34_000;
    if (step !== 3) {
      const item = r.op('cpu_op', 'aten::item', MAIN, t, 48_000, ', "Input Dims": [[]], "Input type": ["float"]');
      r.launch({ api: 'cudaMemcpyAsync', cbid: 41, tid: MAIN, ts: t + 4_000, ext: item, kernel: 'Memcpy DtoH (Device -> Pageable)', kcat: 'gpu_memcpy', stream: 20, kdur: 1_888, bytes: 4 });
      r.sync(MAIN, t + 9_000, item);
      t += 50_000;
    }
    r.memory(t, -4_194_304, (total -= 4_194_304));
    stepAct.dur = t - stepStart;
    rootAct.dur = t - rootAct.ts;
    r.gpuAnnotation(`ProfilerStep#${step}`, gpuMark);
    void stepExt;
    t += 5_000;
  }
  const threads: [number, number, string][] = [[PID, MAIN, `thread ${MAIN} (python3)`], [PID, AUTOGRAD, `thread ${AUTOGRAD} (pt_autograd_0)`], [GPU, 7, 'stream 7 '], [GPU, 20, 'stream 20 ']];
  const text = assemble(r, META, threads, { start: spanStart, end: t, iteration: 0 }, '/workspace/traces/h200_41873.1764302400000.pt.trace.json');
  return { text, pairedFlows: r.paired + 2 * 6, cutFlowEvents: r.cut };
}

/**
 * The same block under `torch.compile` (inductor): `Torch-Compiled Region: 0/0`, `CompiledFunction`,
 * the compiled graph's call, Triton kernels launched through the driver (`cuda_driver`
 * `cuLaunchKernel`, each with its `ac2g` flow), extern GEMMs through `cudaLaunchKernel`.
 */
export function kinetoCompiledTrace(): KinetoTrace {
  const r = new Recorder();
  let t = 5_902_118_554;
  const spanStart = t;
  r.newBuffer();
  r.launch({ api: 'cuLaunchKernel', cat: 'cuda_driver', cbid: 307, tid: MAIN, ts: t - 22_000, ext: 0, kernel: 'triton_poi_fused_add_0', stream: 7, kdur: 2_950, window: 'device' });
  const triton = ['triton_red_fused_native_layer_norm_0', 'triton_poi_fused_addmm_gelu_1', 'triton_per_fused__softmax_2', 'triton_poi_fused_add_native_layer_norm_3'];
  for (const step of [4, 5, 6]) {
    if (step > 4) r.newBuffer();
    const stepStart = t, gpuMark = r.mark();
    r.op('user_annotation', `ProfilerStep#${step}`, MAIN, t, 0);
    const stepAct = r.cpu[r.cpu.length - 1];
    t += 1_500;
    r.op('user_annotation', 'Torch-Compiled Region: 0/0', MAIN, t, 0);
    const region = r.cpu[r.cpu.length - 1];
    r.op('cpu_op', 'CompiledFunction', MAIN, t + 2_000, 0);
    const cf = r.cpu[r.cpu.length - 1];
    r.op('user_annotation', '## Call CompiledFxGraph fu3xdkfqwn2hx7wrq5q7utfr4kcbv4pqgjmv6sfxq7sd6oqc3kcl ##', MAIN, t + 3_000, 0);
    const call = r.cpu[r.cpu.length - 1];
    t += 5_000;
    for (let layer = 0; layer < 4; layer++) {
      for (const [k, name] of triton.entries()) {
        const ext = r.op('user_annotation', name, MAIN, t, 8_000);
        const last = step === 6 && layer === 3 && k >= 2;
        r.launch({ api: 'cuLaunchKernel', cat: 'cuda_driver', cbid: 307, tid: MAIN, ts: t + 1_500, ext, kernel: name, stream: 7, kdur: 2_100 + k * 650 + layer * 37, grid: [512 >> k, 1, 1], block: [k === 2 ? 128 : 256, 1, 1], regs: 24 + 4 * k, window: last ? 'runtime' : 'both' });
        t += 9_000;
      }
      const mm = r.op('cpu_op', 'aten::mm', MAIN, t, 18_000, ', "Input Dims": [[4096, 256], [256, 1024]], "Input type": ["float", "float"]');
      const last = step === 6 && layer === 3;
      r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t + 9_000, ext: mm, kernel: 'sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas', stream: 7, kdur: 19_442 + layer * 13, grid: [32, 8, 1], block: [128, 1, 1], regs: 168, window: last ? 'runtime' : 'both' });
      t += 20_000;
    }
    call.dur = t - call.ts;
    cf.dur = t - cf.ts + 1_000;
    region.dur = t - region.ts + 2_000;
    t += 3_000;
    stepAct.dur = t - stepStart;
    r.gpuAnnotation(`ProfilerStep#${step}`, gpuMark);
    t += 4_000;
  }
  const threads: [number, number, string][] = [[PID, MAIN, `thread ${MAIN} (python3)`], [GPU, 7, 'stream 7 ']];
  const text = assemble(r, { with_stack: '0', record_shapes: '1', profile_memory: '0', cupti_version: '26', cuda_runtime_version: '12080', cuda_driver_version: '12080' }, threads, { start: spanStart, end: t, iteration: 0 }, '/workspace/traces/h200_41873.1764302460000.pt.trace.json');
  return { text, pairedFlows: r.paired, cutFlowEvents: r.cut };
}
