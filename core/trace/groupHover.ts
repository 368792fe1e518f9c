/**
 * The hover on a `phase` or `layer_id` value: that phase's or layer's row of the trace metrics
 * (`npu-trace stats`). The metrics need the whole document, so they are computed lazily, at most
 * once per document version (keyed by the document and its revision: edits update it in place), and
 * only for documents up to MAX_HOVER_STATS_LINES lines: beyond it a hover would cost seconds after
 * each edit, and the hover points to "NPU Trace: Show Summary", which computes them in a worker.
 */
import { escapeMarkdown, markdownCode } from '../common/escape';
import type { TraceDocument } from './document';
import { MetricsCollector } from './metrics/collector';
import type { GroupStats, TraceStats } from './metrics/types';

export const MAX_HOVER_STATS_LINES = 200_000;

const cache = new WeakMap<TraceDocument, { revision: number; stats: TraceStats }>();

/** The metrics of a whole open trace, once per revision (also the CMDQ hover's measured layer times). */
export function statsOf(doc: TraceDocument): TraceStats {
  const hit = cache.get(doc);
  if (hit && hit.revision === doc.revision) return hit.stats;
  const c = new MetricsCollector();
  for (const l of doc.lines) {
    if (l.obj) c.addParsed(l.obj, l.text);
    else if (l.event) c.addLine(l.text);
  }
  const stats = c.finish();
  cache.set(doc, { revision: doc.revision, stats });
  return stats;
}

const n = (v: number | null) => (v === null ? '—' : v.toLocaleString('en-US'));
const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);

/** Markdown for the value of `key` on a line, or undefined when `key` is not `phase`/`layer_id`. */
export function groupHover(doc: TraceDocument, key: string, value: unknown): string | undefined {
  if ((key !== 'phase' && key !== 'layer_id') || (typeof value !== 'string' && typeof value !== 'number')) return undefined;
  const name = String(value);
  const what = key === 'phase' ? 'Phase' : 'Layer';
  // The name outside the bold: marked reads emphasis across a code span (a fuzz case: `\x00*```https://…`).
  const title = `**${what}** ${markdownCode(name)}`;
  if (doc.lines.length > MAX_HOVER_STATS_LINES) {
    return `${title}\n\n_This trace has more than ${MAX_HOVER_STATS_LINES.toLocaleString('en-US')} lines: run "NPU Trace: Show Summary" for the numbers of its ${key === 'phase' ? 'phases' : 'layers'}._`;
  }
  const s = statsOf(doc);
  const g: GroupStats | undefined = key === 'phase' ? s.phases.find((p) => p.phase === name) : s.layers.find((l) => l.layer_id === name);
  if (!g) return `${title}\n\n_No completed command of this ${what.toLowerCase()} (the metrics group commands by the ${escapeMarkdown(key)} of their CMD_ENQUEUE)._`;
  return [
    title, '',
    '| | |', '|---|---|',
    `| commands | ${n(g.commands)} |`,
    `| latency Σ | ${n(g.latency_sum_cycles)} cycles |`,
    `| span | ${n(g.span_cycles)} cycles |`,
    `| p50 / p95 / max | ${n(g.p50_cycles)} / ${n(g.p95_cycles)} / ${n(g.max_cycles)} cycles |`,
    `| TE / VE / DMA | ${pct(g.te_share)} / ${pct(g.ve_share)} / ${pct(g.dma_share)} of the span |`,
  ].join('\n');
}
