/**
 * Triton Proton's intra-kernel trace (`proton.start(..., data="trace")` with instrumentation, the
 * `*.chrome_trace` it writes), as its `StreamChromeTraceWriter` writes it (triton-lang/triton
 * third_party/proton/csrc/lib/Data/TraceDataIO/TraceWriter.cpp, the version with cross-warp async
 * events): one line, nlohmann's `dump()` (keys sorted, doubles with a decimal point: `1000.0`),
 * `displayTimeUnit: "ns"`, only `X` events and no `M` events; the pid a string per CTA,
 * `"<kernel> Core<SM> CTA<block>"`, the tid a string per warp and line,
 * `"warp <w> (line <l>)"` (overlapping scopes of one warp on separate lines), `ts`/`dur` in
 * fractional µs from cycles at an assumed 1 GHz, `cname` colours, the scope's `cat` the kernel
 * name, `args` with the block's times; a scope begun on one warp and ended on another as two
 * zero-length slices joined by `bind_id` with `flow_out`/`flow_in`. CTAs are grouped by SM, in
 * order of SM id. Generated: no GPU ran.
 */
export interface ProtonTrace {
  text: string;
  /** pid strings, in file order. */
  ctas: string[];
  /** tid strings of the first CTA. */
  warps: string[];
  /** Cross-warp flows (each one arrow). */
  flows: number;
  slices: number;
}

const COLORS = ['cq_build_passed', 'cq_build_failed', 'thread_state_iowait', 'thread_state_running', 'thread_state_runnable', 'thread_state_unknown', 'rail_response', 'rail_idle', 'rail_load'];

export function protonTrace(): ProtonTrace {
  const kernel = 'matmul_kernel';
  const events: Record<string, unknown>[] = [];
  const scopes = ['load_a', 'load_b', 'mma', 'store_c'];
  // CTA (block) → SM: 12 blocks on 8 SMs, as a grid lands; the writer groups them by SM.
  const blocks = Array.from({ length: 12 }, (_, b) => ({ block: b, sm: (b * 3) % 8 }));
  const bySm = new Map<number, number[]>();
  for (const { block, sm } of blocks) bySm.set(sm, [...(bySm.get(sm) ?? []), block]);
  const ctas: string[] = [];
  let warps: string[] = [];
  let flows = 0, slices = 0, nextFlow = 1;
  let minInit = Infinity;
  const init = (b: number) => 1_000_000 + b * 1_337 + (b % 3) * 211;
  for (const { block } of blocks) minInit = Math.min(minInit, init(block));
  for (const sm of [...bySm.keys()].sort((a, b) => a - b)) {
    for (const block of bySm.get(sm)!) {
      const pid = `${kernel} Core${sm} CTA${block}`;
      ctas.push(pid);
      const initTime = init(block), finalPre = initTime + 9_000 + block * 13, finalPost = finalPre + 850;
      const args = { 'Finalization Time (ns)': finalPost - finalPre, 'Frequency (MHz)': nl(1000), 'Init Time (ns)': initTime, 'Post Final Time (ns)': finalPost, call_stack: ['test_matmul', kernel] };
      const cycle0 = 52_000_000 + block * 7_919; // the block's first cycle
      const adjust = initTime - minInit - cycle0;
      const tids: string[] = [];
      for (let w = 0; w < 4; w++) {
        let c = cycle0 + w * 17;
        for (const [k, name] of scopes.entries()) {
          // load_a and load_b overlap on warps 0-1 (async copies): the second goes to line 1.
          const overlap = k === 1 && w < 2;
          const start = overlap ? c - 400 : c;
          const len = [1_210, 1_180, 3_877 + w * 31, 655][k];
          const tid = `warp ${w} (line ${overlap ? 1 : 0})`;
          if (!tids.includes(tid)) tids.push(tid);
          events.push({ args, cat: kernel, cname: COLORS[k % COLORS.length], dur: nl(len / 1000), name, ph: 'X', pid, tid, ts: nl((start + adjust) / 1000) });
          slices++;
          c = start + len + 23;
        }
      }
      // A TMA barrier armed by warp 0 and waited on by warp 3: one cross-warp async scope.
      const flowId = nextFlow++;
      for (const [w, io, at] of [[0, 'flow_out', cycle0 + 300], [3, 'flow_in', cycle0 + 2_900]] as const) {
        events.push({ args: { call_stack: ['test_matmul', kernel] }, bind_id: flowId, cat: 'flow', cname: COLORS[4], dur: 0, [io]: true, name: 'tma_barrier', ph: 'X', pid, tid: `warp ${w} (line 0)`, ts: nl((at + adjust) / 1000) });
        slices++;
      }
      flows++;
      if (!warps.length) warps = tids;
    }
  }
  return { text: `${nlohmannDump({ displayTimeUnit: 'ns', traceEvents: events })}\n`, ctas, warps, flows, slices };
}

/** A double as nlohmann's dump writes it: always with a decimal point or exponent. */
class Double {
  constructor(readonly v: number) {}
}
const nl = (v: number) => new Double(v);

/** nlohmann::json's `dump()`: no spaces, object keys in byte order. */
function nlohmannDump(v: unknown): string {
  if (v instanceof Double) {
    const s = String(v.v);
    return /[.e]/.test(s) ? s : `${s}.0`;
  }
  if (Array.isArray(v)) return `[${v.map(nlohmannDump).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${nlohmannDump((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  if (typeof v === 'number' && !Number.isInteger(v)) return nlohmannDump(nl(v));
  return JSON.stringify(v);
}
