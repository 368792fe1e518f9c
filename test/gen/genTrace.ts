import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * A deterministic generator of realistic, valid NPU traces (spec npu-trace-format-v1): transformer
 * layers of a small LLM, each a fixed list of commands (LayerNorm, QKV projection, attention score,
 * softmax, attention apply, output projection, MLP), split into TE/VE jobs with their DMA, DRAM and
 * NoC legs and SRAM traffic. Commands run one after another; inside one, the DMA of the next job
 * overlaps the compute of the current one, like a double-buffered scheduler. Used for examples/ and
 * by the benchmarks, so the same seed always yields the same bytes.
 */
export interface GenOptions {
  /** Exactly this many lines (events), TRACE_META included. */
  events: number;
  seed?: number;
  /** Transformer layers per token before the token completes. */
  layers?: number;
  model?: string;
  /** Writes a TRACE_META header as the first line (default true). */
  meta?: boolean;
  /**
   * A planted regression (`npu-trace diff` tests): every duration inside the commands of this
   * phase (transfers, compute, completion) times `factor`. The random draws are the same, so a
   * factor of 1 writes the same bytes as none.
   */
  slow?: { phase: string; factor: number };
  /** Stop after this many commands, with no filler: `events` is then an upper bound. */
  commands?: number;
}

type Event = Record<string, unknown> & { event_type: string; t_cycle: number };

interface CommandPlan {
  cmd_type: 'MATMUL' | 'LAYERNORM' | 'SOFTMAX' | 'GELU';
  phase: string;
  engine: 'TE' | 'VE';
  jobs: number;
  heads?: number;
}

// Tile counts sized for a ~2k-hidden model: one layer is about 1 600 events.
const LAYER: readonly CommandPlan[] = [
  { cmd_type: 'LAYERNORM', phase: 'LN1', engine: 'VE', jobs: 4 },
  { cmd_type: 'MATMUL', phase: 'QKV_PROJ', engine: 'TE', jobs: 24 },
  { cmd_type: 'MATMUL', phase: 'ATTENTION_SCORE', engine: 'TE', jobs: 16, heads: 8 },
  { cmd_type: 'SOFTMAX', phase: 'ATTENTION_SCORE', engine: 'VE', jobs: 8, heads: 8 },
  { cmd_type: 'MATMUL', phase: 'ATTENTION_APPLY', engine: 'TE', jobs: 16, heads: 8 },
  { cmd_type: 'MATMUL', phase: 'O_PROJ', engine: 'TE', jobs: 8 },
  { cmd_type: 'LAYERNORM', phase: 'LN2', engine: 'VE', jobs: 4 },
  { cmd_type: 'MATMUL', phase: 'MLP', engine: 'TE', jobs: 32 },
  { cmd_type: 'GELU', phase: 'MLP', engine: 'VE', jobs: 8 },
  { cmd_type: 'MATMUL', phase: 'MLP', engine: 'TE', jobs: 16 },
];

const VE_OP: Record<string, string> = { LAYERNORM: 'LAYERNORM', SOFTMAX: 'SOFTMAX', GELU: 'GELU' };
const DRAM_BASE = 0x7fff_0000_0000; // 140737488289792: above 2^32, below 2^53

/** mulberry32: tiny, fast and deterministic. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Issue #34's pair: two runs of one build of 600 commands, the second with phase MLP 1.5× slower
 * (its planted regression, to be the only significant one and the first).
 */
export const PLANTED_PAIR: { base: GenOptions; slower: GenOptions } = {
  base: { events: 1e7, commands: 600, seed: 1 },
  slower: { events: 1e7, commands: 600, seed: 2, slow: { phase: 'MLP', factor: 1.5 } },
};

/** The text of a run as a writer saves it: one event a line, a final line break. */
export const traceText = (opts: GenOptions): string => `${[...traceLines(opts)].join('\n')}\n`;

/** Yields the trace one JSON line at a time (no trailing newline), exactly `opts.events` lines. */
export function* traceLines(opts: GenOptions): Generator<string> {
  const rand = rng(opts.seed ?? 1);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const layers = opts.layers ?? 2;
  const model = opts.model ?? 'tinyllama_1b';
  const sim = `run_2026_11_22_${String((opts.seed ?? 1) % 100).padStart(2, '0')}`;
  let left = opts.events;
  if (left <= 0) return;
  if (opts.meta ?? true) {
    yield JSON.stringify({ event_type: 'TRACE_META', version: '1.0', sim_version: 'xnpu-sim 0.9.2', sim_id: sim, clock_ghz: CLOCK_GHZ, sim_config: { te_tflops: 64, sram_size: 8388608, dram_channels: 4, noc_links: 2 } });
    left--;
  }
  let t = 100;
  let cmdId = 1;
  let jobId = 1000;
  let txId = 500;
  let token = 0;
  let lastCmd = 0;
  let lastLayer = 0;
  const maxCmds = opts.commands ?? Infinity;
  for (let step = 0; left > 0 && step < maxCmds; step++) {
    const layer = Math.floor(step / LAYER.length) % layers;
    const plan = LAYER[step % LAYER.length];
    const endsToken = step % LAYER.length === LAYER.length - 1 && layer === layers - 1;
    const f = opts.slow?.phase === plan.phase ? opts.slow.factor : 1;
    const dur = f === 1 ? int : (lo: number, hi: number) => Math.round(int(lo, hi) * f);
    const evs = command(plan, { cmd: cmdId, layer, token, t, nextJob: jobId, nextTx: txId, model, endsToken, int, dur, factor: f });
    // A command that does not fit is not cut (that would leave unmatched STARTs): the rest is
    // filled with SRAM_ACCESS events, which pair with nothing.
    if (evs.events.length > left) break;
  for (const e of evs.events) yield JSON.stringify(withCommon(e, sim));
    left -= evs.events.length;
    lastCmd = cmdId;
    lastLayer = layer;
    t = evs.end + int(4, 20);
    jobId = evs.nextJob;
    txId = evs.nextTx;
    cmdId++;
    if (endsToken) token++;
  }
  for (let i = 0; left > 0 && opts.commands === undefined; left--, i++) {
    yield JSON.stringify(withCommon({ event_type: 'SRAM_ACCESS', t_cycle: t + i, addr: 4096 * (i % 512), bank_id: i % 16, access_type: i % 3 ? 'READ' : 'WRITE', by: 'DMA', conflict: false, cmd_id: lastCmd || undefined, layer_id: lastLayer }, sim));
  }
}

const CLOCK_GHZ = 1.2;

/**
 * The spec's common fields (§3.2) on every event: t_ns from the clock in TRACE_META, the run id and
 * the NPU, core and tenant (one of each here). They make an event about 200 bytes, as real traces.
 */
function withCommon(e: Event, sim: string): Event {
  const { event_type, t_cycle, ...rest } = e;
  return { event_type, t_cycle, t_ns: Math.round((t_cycle / CLOCK_GHZ) * 100) / 100, ...rest, sim_id: sim, npu_id: 0, core_id: 0, tenant_id: 1 };
}

interface CmdCtx {
  cmd: number; layer: number; token: number; t: number; nextJob: number; nextTx: number; model: string; endsToken: boolean;
  int: (lo: number, hi: number) => number;
  /** A duration inside the command: `int`, scaled for a slowed phase. */
  dur: (lo: number, hi: number) => number;
  factor: number;
}

function command(plan: CommandPlan, c: CmdCtx): { events: Event[]; end: number; nextJob: number; nextTx: number } {
  const { int, dur } = c;
  const ev: Event[] = [];
  const phase = plan.phase;
  ev.push({ event_type: 'CMD_ENQUEUE', t_cycle: c.t, cmd_id: c.cmd, cmd_type: plan.cmd_type, source: 'ISA', token: c.token, desc_addr: DRAM_BASE + c.cmd * 256,
    layer_id: c.layer, block_id: c.layer, phase, model_name: c.model, precision: 'BF16' });
  const start = c.t + int(10, 40);
  ev.push({ event_type: 'CMD_START', t_cycle: start, cmd_id: c.cmd, layer_id: c.layer, phase });
  let dmaFree = start + 5;
  let engineFree = start + 5;
  let end = start;
  let job = c.nextJob;
  let tx = c.nextTx;
  for (let j = 0; j < plan.jobs; j++, job++, tx++) {
    const head = plan.heads ? Math.floor((j * plan.heads) / plan.jobs) : undefined;
    const jobType = plan.engine === 'TE' ? 'TE_GEMM' : `VE_${plan.cmd_type === 'LAYERNORM' ? 'LN' : plan.cmd_type}`;
    const issue = dmaFree;
    const size = plan.engine === 'TE' ? 65536 : 16384;
    const sram = 4096 + (j % 8) * size;
    const src = DRAM_BASE + 0x100000 * c.layer + j * size;
    const channel = j % 4;
    const link = j % 2;
    const dmaStart = issue + dur(2, 6);
    const nocStart = dmaStart + dur(2, 5);
    const dramStart = nocStart + dur(1, 4);
    const dramEnd = dramStart + Math.round((size / 2048) * c.factor) + dur(4, 30);
    const nocEnd = dramEnd + dur(1, 4);
    const dmaEnd = nocEnd + dur(2, 6);
    const common = { cmd_id: c.cmd, job_id: job, phase, layer_id: c.layer, ...(head !== undefined ? { head_id: head } : {}) };
    ev.push({ event_type: 'JOB_ISSUE', t_cycle: issue, job_id: job, cmd_id: c.cmd, job_type: jobType,
      tile_id: plan.engine === 'TE' ? j : null, vec_chunk_id: plan.engine === 'VE' ? j : null, phase, layer_id: c.layer });
    ev.push({ event_type: 'DMA_START', t_cycle: dmaStart, tx_id: tx, channel, direction: 'DRAM_TO_SRAM', src_addr: src, dst_addr: sram, size_bytes: size, ...common });
    ev.push({ event_type: 'NOC_TX_START', t_cycle: nocStart, tx_id: tx, link_id: link, size_bytes: size, cmd_id: c.cmd });
    ev.push({ event_type: 'DRAM_TX_START', t_cycle: dramStart, tx_id: tx, channel, size_bytes: size, cmd_id: c.cmd });
    ev.push({ event_type: 'DRAM_TX_END', t_cycle: dramEnd, tx_id: tx, channel });
    ev.push({ event_type: 'NOC_TX_END', t_cycle: nocEnd, tx_id: tx, link_id: link });
    ev.push({ event_type: 'DMA_END', t_cycle: dmaEnd, tx_id: tx, channel, cmd_id: c.cmd, job_id: job });
    dmaFree = dmaEnd + 1;
    const computeStart = Math.max(engineFree, dmaEnd + 1);
    const computeEnd = computeStart + (plan.engine === 'TE' ? dur(40, 90) : dur(20, 45));
    const by = plan.engine;
    if (plan.engine === 'TE') {
      ev.push({ event_type: 'TE_START', t_cycle: computeStart, ...common, m: 128, n: 128, k: 256, tile_m: 64, tile_n: 64, tile_k: 64 });
      ev.push({ event_type: 'TE_END', t_cycle: computeEnd, cmd_id: c.cmd, job_id: job, mac_count: 4194304, latency_cycles: computeEnd - computeStart });
    } else {
      ev.push({ event_type: 'VE_START', t_cycle: computeStart, ...common, op_type: VE_OP[plan.cmd_type], len: 2048, batch: 8 });
      ev.push({ event_type: 'VE_END', t_cycle: computeEnd, cmd_id: c.cmd, job_id: job, latency_cycles: computeEnd - computeStart });
    }
    const bank = (j * 3) % 16;
    const conflict = int(0, 9) === 0;
    ev.push({ event_type: 'SRAM_ACCESS', t_cycle: computeStart + 1, addr: sram, bank_id: bank, access_type: 'READ', by, conflict, cmd_id: c.cmd, job_id: job });
    if (conflict) {
      ev.push({ event_type: 'SRAM_CONFLICT', t_cycle: computeStart + 2, bank_id: bank, num_requests: 2, allowed: 1, stalled_clients: ['DMA'], cmd_id: c.cmd });
    }
    ev.push({ event_type: 'SRAM_ACCESS', t_cycle: computeEnd - 1, addr: sram + size / 2, bank_id: (bank + 1) % 16, access_type: 'WRITE', by, conflict: false, cmd_id: c.cmd, job_id: job });
    const done = computeEnd + dur(1, 3);
    ev.push({ event_type: 'JOB_DONE', t_cycle: done, job_id: job, cmd_id: c.cmd, job_type: jobType, latency_cycles: done - issue });
    engineFree = computeEnd + 1;
    end = Math.max(end, done);
  }
  end += dur(2, 8);
  ev.push({ event_type: 'CMD_END', t_cycle: end, cmd_id: c.cmd, status: 'OK', phase, layer_id: c.layer });
  ev.push({ event_type: 'IRQ_EMIT', t_cycle: end + 1, cmd_id: c.cmd, token: c.token, irq_line: 3 });
  if (c.endsToken) ev.push({ event_type: 'TOKEN_COMPLETE', t_cycle: end + 2, token: c.token, cmd_id: c.cmd, status: 'OK', model_name: c.model });
  // Stable sort: events at the same cycle keep their causal order (an END before the next START).
  ev.sort((a, b) => a.t_cycle - b.t_cycle);
  return { events: ev, end: end + 2, nextJob: job, nextTx: tx };
}

/** Writes `opts.events` lines to `path`, streaming; returns the byte count. */
export async function writeTrace(path: string, opts: GenOptions): Promise<{ events: number; bytes: number }> {
  const out = createWriteStream(path);
  let bytes = 0;
  let events = 0;
  let chunk: string[] = [];
  const flush = async () => {
    const s = chunk.join('');
    chunk = [];
    bytes += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, 'drain');
  };
  for (const line of traceLines(opts)) {
    chunk.push(line, '\n');
    events++;
    if (chunk.length >= 2048) await flush();
  }
  await flush();
  out.end();
  await once(out, 'finish');
  return { events, bytes };
}
