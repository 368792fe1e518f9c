import type { CmdqEntry } from '../model';
import type { GraphAnalysis } from './analysis';
import { type MeasuredLayer, traceLayerOf } from './layerTimes';

/** Layers in a join, as in the trace metrics (a file can name a million). */
export const MAX_JOIN_LAYERS = 10_000;

/** One layer: what the cost model estimates from the CMDQ beside what the trace measured. */
export interface LayerJoin {
  /** `layer_id` as the CMDQ names it, and the trace layer it was matched to (null: none). */
  layer: string;
  traceLayer: string | null;
  entries: number;
  /** Estimated, cycles: first start to last end of its entries in the list-scheduled run, and busy per engine kind. */
  estimated: { span: number; te: number; ve: number; dma: number };
  /** Measured (npu-trace stats `layers`), null without a matching trace layer. */
  measured: { span: number; te: number; ve: number; dma: number; commands: number } | null;
  /** measured span / estimated span, null when either is missing or 0. */
  ratio: number | null;
}

/**
 * Joins a CMDQ's layers with a trace's by `layer_id` (§4.4: the generator keeps it so they can be
 * joined). A CMDQ layer matches the trace layer named by `map[layer]` when given, else the trace
 * layer of the same string (the trace metrics already read `3` and `"3"` as one layer). Layers in
 * CMDQ order of first use; blocked entries and entries without a layer take no part.
 */
export function joinLayers(entries: readonly CmdqEntry[], a: GraphAnalysis, trace: readonly MeasuredLayer[], map: Readonly<Record<string, string>> = {}): { layers: LayerJoin[]; more: number } {
  // `more`: entries of layers past MAX_JOIN_LAYERS, counted, not joined.
  const rows = new Map<string, LayerJoin & { first: number; last: number }>();
  let more = 0;
  for (let i = 0; i < a.n; i++) {
    const name = entries[i].layerId;
    if (typeof name !== 'string' || a.level[i] < 0) continue;
    let r = rows.get(name);
    if (!r) {
      if (rows.size >= MAX_JOIN_LAYERS) {
        more++;
        continue;
      }
      rows.set(name, (r = { layer: name, traceLayer: null, entries: 0, estimated: { span: 0, te: 0, ve: 0, dma: 0 }, measured: null, ratio: null, first: Infinity, last: -Infinity }));
    }
    r.entries++;
    const op = entries[i].opcode ?? '';
    const kind = op.startsWith('TE_') ? 'te' : op.startsWith('VE_') ? 've' : op.startsWith('DMA_') ? 'dma' : undefined;
    if (kind) r.estimated[kind] += a.cost[i];
    r.first = Math.min(r.first, a.start[i]);
    r.last = Math.max(r.last, a.start[i] + a.cost[i]);
  }
  const byId = new Map(trace.map((l) => [l.layer_id, l]));
  const layers: LayerJoin[] = [];
  for (const r of rows.values()) {
    const target = traceLayerOf(r.layer, map);
    const t = byId.get(target);
    const span = r.last > r.first ? r.last - r.first : 0;
    layers.push({
      layer: r.layer, traceLayer: t ? target : null, entries: r.entries,
      estimated: { ...r.estimated, span },
      measured: t ? { span: t.span_cycles, te: t.te_busy_cycles, ve: t.ve_busy_cycles, dma: t.dma_busy_cycles, commands: t.commands } : null,
      ratio: t && span > 0 ? Math.round((t.span_cycles / span) * 100) / 100 : null,
    });
  }
  return { layers, more };
}
