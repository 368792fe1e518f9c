import { clip } from '../../common/clip';
import { escapeControl } from '../../common/escape';
import type { CmdqEntry } from '../model';
import type { GraphAnalysis } from './analysis';
import type { CostModel } from './cost';
import type { LayerJoin } from './join';

/** Entries of the critical path and levels printed by the text report before `… N more`. */
export const MAX_TEXT_ITEMS = 20;
/** Engine rows of the text table: a queue naming 300k te_ids has 300k engines. */
export const MAX_ENGINE_ROWS = 64;

const num = (x: number): number | null => (Number.isNaN(x) ? null : x);
const pct = (a: number, b: number): number => (b > 0 ? Math.round((1000 * a) / b) / 10 : 0);

/** `npu-trace cmdq-graph --json`: schemas/cmdq-graph.schema.json (version 1; later versions only add keys). */
export function graphJson(entries: readonly CmdqEntry[], a: GraphAnalysis, model: CostModel): object {
  const nodes = new Array<object>(a.n);
  for (let i = 0; i < a.n; i++) {
    const e = entries[i];
    nodes[i] = {
      index: i, id: e.id ?? null, opcode: e.opcode ?? null, layer: typeof e.layerId === 'string' ? e.layerId : null,
      engine: a.engineOf[i] >= 0 ? a.engines[a.engineOf[i]] : null, level: a.level[i] >= 0 ? a.level[i] : null, cost: a.cost[i],
      earliestStart: num(a.earliestStart[i]), slack: num(a.slack[i]), start: num(a.start[i]), critical: a.onCritical[i] === 1,
    };
  }
  return {
    version: 1,
    costModel: model,
    entries: a.n,
    blocked: a.blocked,
    cycles: { count: a.cycleCount, shown: a.cycles },
    criticalPath: {
      cycles: a.criticalLength,
      entries: a.criticalPath,
      byEngine: a.load.filter((l) => l.critical > 0).map((l) => ({ engine: l.engine, cycles: l.critical, share: pct(l.critical, a.criticalLength) })),
    },
    schedule: {
      makespan: a.makespan,
      engines: a.load.map((l) => ({ engine: l.engine, entries: l.entries, busy: l.busy, utilization: pct(l.busy, a.makespan) })),
    },
    levels: a.levelCounts,
    nodes,
  };
}

function label(e: CmdqEntry | undefined): string {
  return escapeControl(clip(e?.opcode ?? '(no opcode)', 40));
}

/** The default output: summary lines for a terminal (every value from the file through escapeControl). */
export function graphText(file: string, entries: readonly CmdqEntry[], a: GraphAnalysis, model: CostModel): string {
  const out: string[] = [];
  out.push(`${escapeControl(file)}: ${a.n} entries, ${a.levelCounts.length} levels, critical path ${a.criticalLength} cycles, list-scheduled run ${a.makespan} cycles`);
  out.push(`cost model: DMA ${model.dmaBytesPerCycle} B/cycle, TE ${model.teMacsPerCycle} MAC/cycle, VE ${model.veElementsPerCycle} elements/cycle`);
  const path = a.criticalPath.slice(0, MAX_TEXT_ITEMS).map((i) => `${i} ${label(entries[i])}`);
  if (a.criticalPath.length > MAX_TEXT_ITEMS) path.push(`… ${a.criticalPath.length - MAX_TEXT_ITEMS} more`);
  out.push(`critical path (${a.criticalPath.length} entries): ${path.join(' → ')}`);
  if (a.load.length) {
    const rows = [['engine', 'entries', 'busy', 'critical', 'share', 'utilization'],
      ...a.load.slice(0, MAX_ENGINE_ROWS).map((l) => [l.engine, String(l.entries), String(l.busy), String(l.critical), `${pct(l.critical, a.criticalLength)}%`, `${pct(l.busy, a.makespan)}%`])];
    const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    for (const r of rows) out.push(r.map((s, c) => (c === 0 ? s.padEnd(w[c]) : s.padStart(w[c]))).join('  ').trimEnd());
    if (a.load.length > MAX_ENGINE_ROWS) out.push(`… ${a.load.length - MAX_ENGINE_ROWS} more engines (--json lists them all)`);
  }
  const lv = a.levelCounts.slice(0, MAX_TEXT_ITEMS).map((c, l) => `${l}:${c}`);
  if (a.levelCounts.length > MAX_TEXT_ITEMS) lv.push(`… ${a.levelCounts.length - MAX_TEXT_ITEMS} more`);
  out.push(`entries per level: ${lv.join(' ')}`);
  if (a.blocked) {
    const shown = a.cycles.slice(0, MAX_TEXT_ITEMS).map((c) => c.join(' → ')).join('; ');
    out.push(`blocked: ${a.blocked} entries can never start: ${a.cycleCount} dependency cycle${a.cycleCount === 1 ? '' : 's'} (${shown}${a.cycleCount > MAX_TEXT_ITEMS ? '; …' : ''}) and what waits for them`);
  }
  return out.join('\n') + '\n';
}

/** Layer rows printed by the text join before `… N more`. */
export const MAX_JOIN_ROWS = 200;

/** The join with a trace as a text table: estimated (model, list-scheduled run) beside measured, per layer. */
export function joinText(trace: string, j: { layers: LayerJoin[]; more: number }): string {
  const out = [`layers joined with ${escapeControl(trace)} by layer_id: estimated (cost model, list-scheduled run) vs measured (trace), cycles`];
  const dash = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : String(x));
  const rows = [['layer', 'trace layer', 'entries', 'est span', 'span', 'ratio', 'est TE', 'TE', 'est VE', 'VE', 'est DMA', 'DMA'],
    ...j.layers.slice(0, MAX_JOIN_ROWS).map((l) => [escapeControl(clip(l.layer, 40)), l.traceLayer === null ? '(none)' : escapeControl(clip(l.traceLayer, 40)), String(l.entries),
      String(l.estimated.span), dash(l.measured?.span), l.ratio === null ? '-' : `${l.ratio}×`,
      String(l.estimated.te), dash(l.measured?.te), String(l.estimated.ve), dash(l.measured?.ve), String(l.estimated.dma), dash(l.measured?.dma)])];
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) out.push(r.map((s, c) => (c < 2 ? s.padEnd(w[c]) : s.padStart(w[c]))).join('  ').trimEnd());
  if (j.layers.length > MAX_JOIN_ROWS) out.push(`… ${j.layers.length - MAX_JOIN_ROWS} more layers (--json lists them all)`);
  if (j.more) out.push(`… ${j.more} entries of layers past the first ${j.layers.length} not joined`);
  const unmatched = j.layers.filter((l) => l.traceLayer === null).length;
  if (unmatched) out.push(`${unmatched} layer${unmatched === 1 ? '' : 's'} of the CMDQ not in the trace: name the trace's layer with --layer-map`);
  return out.join('\n') + '\n';
}
