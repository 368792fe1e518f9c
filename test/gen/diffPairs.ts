/**
 * Runs of one build for `npu-trace diff` tests, made from the generators' files: every duration a
 * writer printed is drawn again around its value (±`spread`, uniform, seeded), and those of the
 * items `slow` picks are multiplied by `factor` (a planted regression). Only the digits of the
 * durations change: the layout stays the writer's.
 */

/** mulberry32, as the trace generator. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Planted {
  /** Which items are slowed, by their name. */
  slow?: (name: string) => boolean;
  factor?: number;
  spread?: number;
}

/** A new draw of a duration: `d · (1 ± spread)`, times `factor` when slowed. */
export const redraw = (rand: () => number, d: number, slowed: boolean, p: Planted) => d * (1 + (p.spread ?? 0.08) * (2 * rand() - 1)) * (slowed ? p.factor ?? 1.5 : 1);

/**
 * Kineto's Chrome JSON (test/gen/kinetoGen.ts) with its complete events' `dur` (µs with three
 * digits of ns, as Kineto prints them) redrawn.
 */
export function kinetoRun(text: string, seed: number, p: Planted = {}): string {
  const rand = rng(seed);
  return text.replace(/("name": "((?:[^"\\]|\\.)*)"[^{}"]*(?:"[^"]*"[^{}"]*)*?"dur": )(\d+)\.(\d{3})/g, (_m, head: string, name: string, us: string, ns: string) => {
    const d = Math.max(1, Math.round(redraw(rand, Number(us) * 1000 + Number(ns), p.slow?.(name) ?? false, p)));
    return `${head}${Math.floor(d / 1000)}.${String(d % 1000).padStart(3, '0')}`;
  });
}

/**
 * An InferScope trace of the data model (test/gen/inferscopeGen.ts, written as Python's
 * json.dump(indent=2)) with each span's end, duration and wall clock end redrawn from its start.
 */
export function inferscopeRun(trace: Record<string, unknown>, seed: number, p: Planted, wallOf: (t: number) => string): Record<string, unknown> {
  const rand = rng(seed);
  const events = (trace.events as Record<string, unknown>[]).map((e) => {
    if (typeof e.timestamp_start_us !== 'number' || typeof e.timestamp_end_us !== 'number') return e;
    const d = Math.max(1, Math.round(redraw(rand, e.timestamp_end_us - e.timestamp_start_us, p.slow?.(String(e.name)) ?? false, p)));
    const end = e.timestamp_start_us + d;
    return { ...e, timestamp_end_us: end, wall_clock_end: wallOf(end), duration_us: d };
  });
  return { ...trace, events };
}

/**
 * An NNAPI systrace of `runs` runs (each a `[NN_LA_PO]` mark: compile, then `executions`
 * executions of create, startCompute and Event_wait), rows laid out as atrace prints
 * tracing_mark_write (the fixtures' benchmark.systrace), every slice's length redrawn per seed;
 * `slow` picks slices by their name (e.g. `ANeuralNetworksEvent_wait`).
 */
export function nnapiRuns(seed: number, p: Planted = {}, runs = 20, executions = 5): string {
  const rand = rng(seed);
  const rows = ['# tracer: nop', '#', '#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION', '#              | |        |      |   ||||       |         |'];
  let us = 100_000_000;
  const ts = () => `${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}`;
  const mark = (m: string) => rows.push(`  NeuralNetworks-100  (  100) [001] ...1   ${ts()}: tracing_mark_write: ${m}`);
  const slice = (name: string, us0: number, inner?: () => void) => {
    mark(`B|100|${name}`);
    us += 5;
    inner?.();
    us += Math.max(1, Math.round(redraw(rand, us0, p.slow?.(name) ?? false, p)));
    mark('E');
    us += 5;
  };
  for (let r = 0; r < runs; r++) {
    slice('[NN_LA_PO]bench_model', 20, () => {
      slice('[NN_LR_PC]ANeuralNetworksCompilation_finish', 4000);
      for (let e = 0; e < executions; e++) {
        slice('[NN_LA_PE]exec', 10, () => {
          slice('[NN_LR_PE]ANeuralNetworksExecution_create', 60);
          slice('[NN_LR_PIO]ANeuralNetworksExecution_setInput', 30);
          slice('[NN_LR_PE]ANeuralNetworksExecution_startCompute', 400);
          slice('[NN_LR_PE]ANeuralNetworksEvent_wait', 2500);
        });
      }
    });
    us += 1000;
  }
  return `${rows.join('\n')}\n`;
}
