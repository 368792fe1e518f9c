/**
 * A PyTorch 2.x training run of many steps as Kineto writes it, sized like the traces users open
 * (issue #31: 118 MB, 365k events): the layout of kinetoGen.ts (pytorch/kineto
 * libkineto/src/output_json.cpp at 002d99198b93 — pretty-printed, `f` before `s`, `M` at the end),
 * here with every profiler option on, as `torch.profiler.profile(activities=[CPU, CUDA],
 * record_shapes=True, profile_memory=True, with_stack=True)` records it:
 * - `with_stack`: the Python frames around each op as `python_function` slices
 *   (`module.py(1773): _wrapped_call_impl` → `_call_impl` → `nn.Module: Linear_3` → `linear.py(125):
 *   forward` → `<built-in function linear>`), with `Python id` / `Python parent id`;
 * - `record_shapes`: `Input Dims`, `Input type`, `Input Strides`, `Concrete Inputs` on the
 *   `cpu_op`s (torch/csrc/profiler/kineto_shim and profiler_kineto.cpp write them in that order,
 *   after `Record function id` and `Ev Idx`), `Sequence number` / `Fwd thread id` on autograd ops;
 * - `profile_memory`: a `[memory]` instant per allocation and free;
 * - forward on the main thread, backward on `pt_autograd_0` (a `fwdbwd` flow per layer), kernels on
 *   stream 7, copies and memsets on stream 20, an overlapped prefetch copy on stream 24
 *   (`gpu_memcpy` HtoD), each launch with its `ac2g` flow.
 * Generated, deterministic: no GPU ran.
 */
import { assemble, AUTOGRAD, GPU, MAIN, META, PID, Recorder, type KinetoTrace } from './kinetoGen';

const GEMM = 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas';
const GEMM_BW = 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas';
const ADD = 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)';
const LN = 'void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)';
const GELU = 'void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)';
const FLASH = 'void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)';
const FLASH_BW = 'void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> >, true, false, false, false, false, true, false, false>(pytorch_flash::Flash_bwd_params)';

const SHAPES = (b: number, s: number, h: number) => ({
  linear: `, "Input Dims": [[${b}, ${s}, ${h}], [${h}, ${h}], [${h}]], "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"], "Input Strides": [[${s * h}, ${h}, 1], [${h}, 1], [1]], "Concrete Inputs": ["", "", ""]`,
  t: `, "Input Dims": [[${h}, ${h}]], "Input type": ["c10::BFloat16"], "Input Strides": [[${h}, 1]], "Concrete Inputs": [""]`,
  transpose: `, "Input Dims": [[${h}, ${h}], [], []], "Input type": ["c10::BFloat16", "Scalar", "Scalar"], "Input Strides": [[${h}, 1], [], []], "Concrete Inputs": ["", "0", "1"]`,
  strided: `, "Input Dims": [[${h}, ${h}], [], [], []], "Input type": ["c10::BFloat16", "", "", ""], "Input Strides": [[${h}, 1], [], [], []], "Concrete Inputs": ["", "[${h}, ${h}]", "[1, ${h}]", ""]`,
  addmm: `, "Input Dims": [[${h}], [${b * s}, ${h}], [${h}, ${h}], [], []], "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"], "Input Strides": [[1], [${h}, 1], [1, ${h}], [], []], "Concrete Inputs": ["", "", "", "1", "1"]`,
  ln: `, "Input Dims": [[${b}, ${s}, ${h}], [], [${h}], [${h}], []], "Input type": ["c10::BFloat16", "", "c10::BFloat16", "c10::BFloat16", "Scalar"], "Input Strides": [[${s * h}, ${h}, 1], [], [1], [1], []], "Concrete Inputs": ["", "[${h}]", "", "", "1e-05"]`,
  sdpa: `, "Input Dims": [[${b}, 16, ${s}, ${h / 16}], [${b}, 16, ${s}, ${h / 16}], [${b}, 16, ${s}, ${h / 16}], [], [], [], []], "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "Scalar", "Scalar", ""], "Input Strides": [[${s * h}, ${h / 16}, ${h}, 1], [${s * h}, ${h / 16}, ${h}, 1], [${s * h}, ${h / 16}, ${h}, 1], [], [], [], []], "Concrete Inputs": ["", "", "", "", "0.", "True", ""]`,
  gelu: `, "Input Dims": [[${b}, ${s}, ${4 * h}], []], "Input type": ["c10::BFloat16", ""], "Input Strides": [[${s * 4 * h}, ${4 * h}, 1], []], "Concrete Inputs": ["", "none"]`,
  add: `, "Input Dims": [[${b}, ${s}, ${h}], [${b}, ${s}, ${h}], []], "Input type": ["c10::BFloat16", "c10::BFloat16", "Scalar"], "Input Strides": [[${s * h}, ${h}, 1], [${s * h}, ${h}, 1], []], "Concrete Inputs": ["", "", "1"]`,
  mm: `, "Input Dims": [[${b * s}, ${h}], [${h}, ${h}]], "Input type": ["c10::BFloat16", "c10::BFloat16"], "Input Strides": [[${h}, 1], [${h}, 1]], "Concrete Inputs": ["", ""]`,
});

/** Bytes a layer's activation takes (bf16), for the `[memory]` instants. */
const ACT = (b: number, s: number, h: number) => b * s * h * 2;

export interface TrainingOptions {
  /** Profiled steps (default: enough for about `events` events). */
  steps?: number;
  /** About how many events the trace holds (default 365k: the trace of issue #31). */
  events?: number;
  /** Transformer layers per step. */
  layers?: number;
}

/** Events one step writes with `layers` layers (counted from a one-step trace; see `kinetoTrainingTrace`). */
function eventsPerStep(layers: number): number {
  return 50 + layers * 190;
}

/**
 * The training run: `ProfilerStep#N` for each step, each a forward through `layers` transformer
 * layers (layer norm, QKV and output projections, flash attention, MLP with GELU, residual adds),
 * the loss, the backward on the autograd thread, the optimizer's fused kernels, a prefetch of the
 * next batch on stream 24; the window cuts the first kernels (launched before it) and the last
 * launches (kernels after it).
 */
export function kinetoTrainingTrace(o: TrainingOptions = {}): KinetoTrace {
  const layers = o.layers ?? 24;
  const steps = o.steps ?? Math.max(1, Math.round((o.events ?? 365_000) / eventsPerStep(layers)));
  const B = 8, S = 2048, H = 2048;
  const shape = SHAPES(B, S, H);
  const r = new Recorder();
  let t = 4_218_551_309;
  const spanStart = t;
  r.newBuffer();
  r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t - 52_000, ext: 0, kernel: ADD, stream: 7, kdur: 41_204, window: 'device' });
  let total = 1 << 30;
  const alloc = (at: number, bytes: number) => r.memory(at, bytes, (total += bytes));
  let seq = 1;
  for (let step = 0; step < steps; step++) {
    if (step > 0) r.newBuffer();
    const last = step === steps - 1;
    const stepStart = t, gpuMark = r.mark();
    r.op('user_annotation', `ProfilerStep#${step + 10}`, MAIN, t, 0);
    const stepAct = r.cpu[r.cpu.length - 1];
    const root = r.py('train.py(211): <module>', t + 500, 0, 0);
    const rootAct = r.cpu[r.cpu.length - 1];
    const loop = r.py('train.py(187): train_step', t + 800, 0, root);
    const loopAct = r.cpu[r.cpu.length - 1];
    t += 2_000;
    // The next batch to the GPU on its own stream, overlapping the step.
    const to = r.op('cpu_op', 'aten::to', MAIN, t, 31_000, `, "Input Dims": [[${B}, ${S}], [], [], [], [], [], [], []], "Input type": ["long int", "ScalarType", "Layout", "Device", "", "Scalar", "Scalar", ""], "Input Strides": [[${S}, 1], [], [], [], [], [], [], []], "Concrete Inputs": ["", "4", "0", "cuda:0", "", "True", "False", ""]`);
    r.launch({ api: 'cudaMemcpyAsync', cbid: 41, tid: MAIN, ts: t + 9_000, ext: to, kernel: 'Memcpy HtoD (Pinned -> Device)', kcat: 'gpu_memcpy', stream: 24, kdur: 21_877, bytes: B * S * 8 });
    alloc(t + 2_000, B * S * 8);
    t += 33_000;
    const model = r.py('torch/nn/modules/module.py(1773): _wrapped_call_impl', t, 0, loop);
    const modelAct = r.cpu[r.cpu.length - 1];
    const forwardIds: number[] = [];
    for (let l = 0; l < layers; l++) {
      const frame = r.py(`nn.Module: TransformerBlock_${l}`, t, 0, model);
      const frameAct = r.cpu[r.cpu.length - 1];
      // One Python-wrapped module call: the frames with_stack records, the ops record_shapes does.
      const module = (name: string, op: string, args: string, kernel: string, kdur: number, extra?: () => void) => {
        const wrapped = r.py('torch/nn/modules/module.py(1773): _wrapped_call_impl', t, 14_200, frame);
        const call = r.py('torch/nn/modules/module.py(1784): _call_impl', t + 100, 14_000, wrapped);
        const m = r.py(`nn.Module: ${name}`, t + 300, 13_400, call);
        const f = r.py(`torch/nn/modules/${name.startsWith('Linear') ? 'linear.py(125)' : name.startsWith('LayerNorm') ? 'normalization.py(217)' : 'activation.py(734)'}: forward`, t + 600, 12_800, m);
        r.py(`<built-in method ${op.slice(6)} of type object at 0x7f3c1b2e9f40>`, t + 900, 12_000, f);
        const ext = r.op('cpu_op', op, MAIN, t + 1_200, 11_400, args);
        if (op === 'aten::linear') {
          r.op('cpu_op', 'aten::t', MAIN, t + 1_500, 2_100, shape.t);
          r.op('cpu_op', 'aten::transpose', MAIN, t + 1_800, 1_500, shape.transpose);
          r.op('cpu_op', 'aten::as_strided', MAIN, t + 2_100, 600, shape.strided);
          const addmm = r.op('cpu_op', 'aten::addmm', MAIN, t + 4_000, 8_300, `${shape.addmm}, "Sequence number": ${seq}, "Fwd thread id": 0`);
          r.cpu[r.cpu.length - 1].flow = { ph: 's', id: seq, cat: 'fwdbwd' };
          forwardIds.push(seq++);
          r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t + 8_000, ext: addmm, kernel, stream: 7, kdur, grid: [128, 16, 1], block: [384, 1, 1], regs: 168 });
        } else {
          r.op('cpu_op', 'aten::empty', MAIN, t + 1_500, 900, `, "Input Dims": [[], [], [], [], [], []], "Input type": ["", "ScalarType", "", "Device", "Scalar", ""], "Input Strides": [[], [], [], [], [], []], "Concrete Inputs": ["[${B}, ${S}, ${H}]", "15", "", "cuda:0", "False", ""]`);
          r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t + 6_000, ext, kernel, stream: 7, kdur, grid: [16384, 1, 1], block: [256, 1, 1], regs: 40 });
        }
        extra?.();
        t += 15_000;
      };
      module(`LayerNorm_${2 * l}`, 'aten::layer_norm', shape.ln, LN, 18_330);
      module(`Linear_${4 * l}`, 'aten::linear', shape.linear, GEMM, 96_112 + (l % 7) * 13, () => alloc(t + 3_000, 3 * ACT(B, S, H)));
      module(`Attention_${l}`, 'aten::scaled_dot_product_attention', shape.sdpa, FLASH, 151_020 + (l % 5) * 41);
      module(`Linear_${4 * l + 1}`, 'aten::linear', shape.linear, GEMM, 32_880 + (l % 3) * 7);
      module(`Residual_${2 * l}`, 'aten::add', shape.add, ADD, 11_402);
      module(`LayerNorm_${2 * l + 1}`, 'aten::layer_norm', shape.ln, LN, 18_291);
      module(`Linear_${4 * l + 2}`, 'aten::linear', shape.linear, GEMM, 128_707, () => alloc(t + 3_000, 4 * ACT(B, S, H)));
      module(`GELU_${l}`, 'aten::gelu', shape.gelu, GELU, 41_550);
      module(`Linear_${4 * l + 3}`, 'aten::linear', shape.linear, GEMM, 127_900);
      module(`Residual_${2 * l + 1}`, 'aten::add', shape.add, ADD, 11_398);
      frameAct.dur = t - frameAct.ts;
    }
    modelAct.dur = t - modelAct.ts;
    const loss = r.op('cpu_op', 'aten::cross_entropy_loss', MAIN, t, 24_000, `, "Input Dims": [[${B * S}, 32000], [${B * S}], [], [], [], []], "Input type": ["c10::BFloat16", "long int", "", "Scalar", "Scalar", "Scalar"], "Input Strides": [[32000, 1], [1], [], [], [], []], "Concrete Inputs": ["", "", "", "1", "-100", "0."]`);
    r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t + 7_000, ext: loss, kernel: 'void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, c10::BFloat16, float, c10::BFloat16, at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(c10::BFloat16*, c10::BFloat16 const*, int)', stream: 7, kdur: 88_120, grid: [B * S, 1, 1], block: [1024, 1, 1], regs: 38 });
    r.py('torch/_tensor.py(648): backward', t + 26_000, 0, loop);
    const bwAct = r.cpu[r.cpu.length - 1];
    t += 30_000;
    // Backward on the autograd thread: each forward addmm's flow ends at its backward.
    for (let k = forwardIds.length - 1; k >= 0; k--) {
      r.op('cpu_op', 'autograd::engine::evaluate_function: AddmmBackward0', AUTOGRAD, t, 21_000);
      r.op('cpu_op', 'AddmmBackward0', AUTOGRAD, t + 500, 20_000, `, "Sequence number": ${forwardIds[k]}, "Fwd thread id": 1`);
      r.cpu[r.cpu.length - 1].flow = { ph: 'f', id: forwardIds[k], cat: 'fwdbwd' };
      const mm = r.op('cpu_op', 'aten::mm', AUTOGRAD, t + 1_000, 8_000, shape.mm);
      r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: AUTOGRAD, ts: t + 4_000, ext: mm, kernel: GEMM_BW, stream: 7, kdur: 97_030 + (k % 9) * 11, grid: [64, 16, 1], block: [384, 1, 1], regs: 168 });
      const mm2 = r.op('cpu_op', 'aten::mm', AUTOGRAD, t + 10_000, 8_000, shape.mm);
      r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: AUTOGRAD, ts: t + 13_000, ext: mm2, kernel: GEMM_BW, stream: 7, kdur: 96_880, grid: [64, 16, 1], block: [384, 1, 1], regs: 168 });
      if (k % 4 === 2) {
        const fa = r.op('cpu_op', 'aten::_scaled_dot_product_flash_attention_backward', AUTOGRAD, t + 19_000, 1_500, shape.sdpa);
        r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: AUTOGRAD, ts: t + 19_500, ext: fa, kernel: FLASH_BW, stream: 7, kdur: 402_310, grid: [16, B * 16, 1], block: [256, 1, 1], regs: 255 });
      }
      r.memory(t + 20_000, -ACT(B, S, H), (total -= ACT(B, S, H)));
      t += 22_000;
    }
    bwAct.dur = t - bwAct.ts;
    // The optimizer: fused foreach kernels, the grads zeroed on stream 20.
    const opt = r.op('user_annotation', 'Optimizer.step#AdamW.step', MAIN, t, 60_000);
    void opt;
    for (let k = 0; k < 4; k++) {
      const fe = r.op('cpu_op', 'aten::_fused_adamw_', MAIN, t + 2_000 + k * 12_000, 10_000, ', "Input Dims": [[], [], [], [], [], [], [], [], [], [], [], [], [], []], "Input type": ["TensorList", "TensorList", "TensorList", "TensorList", "TensorList", "TensorList", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"], "Input Strides": [[], [], [], [], [], [], [], [], [], [], [], [], [], []], "Concrete Inputs": ["", "", "", "", "", "", "0.0003", "0.9", "0.95", "0.1", "1e-08", "False", "False", ""]');
      r.launch({ api: 'cudaLaunchKernel', cbid: 211, tid: MAIN, ts: t + 5_000 + k * 12_000, ext: fe, kernel: 'void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<c10::BFloat16, 4, (at::native::ADAM_MODE)1, false>, double*, double, double, double, double, double, double, bool*, bool*>', stream: 7, kdur: 61_330, grid: [320, 1, 1], block: [512, 1, 1], regs: 64, window: last && k === 3 ? 'runtime' : 'both' });
    }
    const zero = r.op('cpu_op', 'aten::zero_', MAIN, t + 50_000, 6_000, `, "Input Dims": [[${H}, ${H}]], "Input type": ["c10::BFloat16"], "Input Strides": [[${H}, 1]], "Concrete Inputs": [""]`);
    r.launch({ api: 'cudaMemsetAsync', cbid: 51, tid: MAIN, ts: t + 51_000, ext: zero, kernel: 'Memset (Device)', kcat: 'gpu_memset', stream: 20, kdur: 2_210, bytes: H * H * 2, window: last ? 'runtime' : 'both' });
    t += 62_000;
    const item = r.op('cpu_op', 'aten::item', MAIN, t, 40_000, ', "Input Dims": [[]], "Input type": ["float"], "Input Strides": [[]], "Concrete Inputs": [""]');
    r.launch({ api: 'cudaMemcpyAsync', cbid: 41, tid: MAIN, ts: t + 3_000, ext: item, kernel: 'Memcpy DtoH (Device -> Pageable)', kcat: 'gpu_memcpy', stream: 20, kdur: 1_920, bytes: 4, window: last ? 'runtime' : 'both' });
    r.sync(MAIN, t + 8_000, item);
    t += 42_000;
    r.memory(t, -B * S * 8, (total -= B * S * 8));
    loopAct.dur = t - loopAct.ts;
    rootAct.dur = t - rootAct.ts;
    stepAct.dur = t - stepStart;
    r.gpuAnnotation(`ProfilerStep#${step + 10}`, gpuMark);
    t += 3_000;
  }
  const threads: [number, number, string][] = [[PID, MAIN, `thread ${MAIN} (python3)`], [PID, AUTOGRAD, `thread ${AUTOGRAD} (pt_autograd_0)`], [GPU, 7, 'stream 7 '], [GPU, 20, 'stream 20 '], [GPU, 24, 'stream 24 ']];
  const text = assemble(r, META, threads, { start: spanStart, end: t, iteration: 0 }, '/workspace/traces/h200_41873.1764302400000.pt.trace.json');
  return { text, pairedFlows: r.paired + forwardFlows(r), cutFlowEvents: r.cut };
}

/** The fwdbwd flows written (each with both ends). */
function forwardFlows(r: Recorder): number {
  let n = 0;
  for (const a of r.cpu) if (a.flow?.cat === 'fwdbwd' && a.flow.ph === 's') n++;
  return n;
}
