import { markdownCode } from '../../common/escape';
import type { CmdqEntry } from '../model';

/**
 * What the join reads of one trace layer's measured time. The trace metrics' `LayerStats` holds it;
 * it is named here, not imported, so that one format's folder does not depend on another's.
 */
export interface MeasuredLayer {
  layer_id: string;
  span_cycles: number;
  commands: number;
  te_busy_cycles: number;
  ve_busy_cycles: number;
  dma_busy_cycles: number;
}

/** What `firstLineOfLayer` reads of one NPU trace line (the trace document's `TraceLine` holds it). */
export interface TraceLineFields {
  text: string;
  obj: Record<string, unknown> | undefined;
  type: string | undefined;
  cmd: number | string | undefined;
}

/**
 * The trace layer a CMDQ layer is matched to: `map[layer]` when the map names it, else the same
 * string (the trace metrics read `3` and `"3"` as one layer). The one rule of the join, for the
 * hover, the graph and `cmdq-graph --trace`.
 */
export function traceLayerOf(layer: string, map: Readonly<Record<string, string>>): string {
  return Object.hasOwn(map, layer) ? map[layer] : layer;
}

const n = (v: number) => v.toLocaleString('en-US');
const pct = (v: number, of: number) => (of > 0 ? ` (${Math.round((100 * v) / of)} %)` : '');

/**
 * The hover section with a CMDQ layer's measured time in a trace (`npu-trace stats`, *Layers*),
 * or why there is none. `layers`: the trace's layers by `layer_id`; `traceName`: the file's name;
 * `link`: a Markdown link to append (Show in Timeline), made by the caller.
 */
export function measuredLayerMarkdown(layer: string | null | undefined, layers: ReadonlyMap<string, MeasuredLayer>, map: Readonly<Record<string, string>>, traceName: string, link = ''): string {
  const where = `in ${markdownCode(traceName)}`;
  if (typeof layer !== 'string') return `**Measured** ${where}: _this entry has no \`layer_id\` to join with the trace._`;
  const target = traceLayerOf(layer, map);
  const as = target === layer ? '' : ` (trace layer ${markdownCode(target)}, from \`npuTrace.cmdq.layerMap\`)`;
  const g = layers.get(target);
  if (!g) return `**Measured** ${where}${as}: _no completed command of layer ${markdownCode(target)} in the trace._`;
  return [
    `**Measured** ${where}, layer ${markdownCode(layer)}${as}${link ? ` · ${link}` : ''}`, '',
    `span ${n(g.span_cycles)} cycles · ${n(g.commands)} command${g.commands === 1 ? '' : 's'}`, '',
    `busy: TE ${n(g.te_busy_cycles)}${pct(g.te_busy_cycles, g.span_cycles)} · VE ${n(g.ve_busy_cycles)}${pct(g.ve_busy_cycles, g.span_cycles)} · DMA ${n(g.dma_busy_cycles)}${pct(g.dma_busy_cycles, g.span_cycles)} cycles`,
  ].join('\n');
}

/**
 * The line of trace layer `layer`'s first command in the timeline: the CMD_START of the first
 * `CMD_ENQUEUE` of that layer (the metrics group a command by the layer_id of its CMD_ENQUEUE; the
 * timeline's command starts at CMD_START), else that CMD_ENQUEUE, else -1. A line the fast path
 * kept no object for is parsed here; one over the line limit has no event and is skipped.
 */
export function firstLineOfLayer(lines: readonly TraceLineFields[], layer: string): number {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.type !== 'CMD_ENQUEUE') continue;
    let obj = l.obj;
    if (!obj) {
      try {
        obj = JSON.parse(l.text) as Record<string, unknown>;
      } catch {
        continue;
      }
    }
    const v = obj.layer_id;
    if ((typeof v !== 'string' && typeof v !== 'number') || String(v) !== layer) continue;
    if (l.cmd !== undefined) {
      for (let j = i + 1; j < lines.length; j++) if (lines[j].type === 'CMD_START' && lines[j].cmd === l.cmd) return j;
    }
    return i;
  }
  return -1;
}

/** The first entry whose layer the join matches to trace layer `layer`, or -1. */
export function firstEntryOfTraceLayer(entries: readonly CmdqEntry[], layer: string, map: Readonly<Record<string, string>>): number {
  for (let i = 0; i < entries.length; i++) {
    const name = entries[i].layerId;
    if (typeof name === 'string' && traceLayerOf(name, map) === layer) return i;
  }
  return -1;
}
