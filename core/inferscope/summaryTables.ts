import type { AnalysisResult } from './analysisResult';
import { MAX_FORMAT_ROWS, numCell, textCell, type FormatTable } from '../timeline/formatTables';

const text = (label: string) => ({ label, kind: 'text' as const });
const num = (label: string) => ({ label, kind: 'int' as const });
const pct = (label: string) => ({ label, kind: 'pct' as const });
/** A list of the file's words as one cell, cut like any text cell. */
const list = (xs: readonly string[]) => textCell(xs.join('; '));

/**
 * The Summary tables of an InferScope trace: `npu-trace analyze`'s result (its summary, bottleneck,
 * category breakdown and findings) as tables; percentages become shares (0–1) as the Summary draws them.
 */
export function inferscopeSummaryTables(a: AnalysisResult): FormatTable[] {
  const s = a.summary;
  const b = a.bottleneck;
  return [
    {
      id: 'bottleneck', title: 'Bottleneck', columns: [text('type'), text('primary cause'), pct('confidence'), text('evidence')],
      rows: [[b.type, textCell(b.primary_cause), numCell(b.confidence), list(b.evidence)]],
    },
    {
      id: 'totals', title: 'Totals', columns: [text('measure'), num('µs')],
      rows: ([['end-to-end latency', s.end_to_end_latency_us], ['CPU time', s.total_cpu_time_us], ['GPU time', s.total_gpu_time_us],
        ['host → device copies', s.total_h2d_us], ['device → host copies', s.total_d2h_us], ['idle', s.total_idle_us],
        ['framework overhead', s.framework_overhead_us]] as const).map(([k, v]) => [k, numCell(v)]),
    },
    {
      id: 'categories', title: 'Time by category (each µs counted once, by priority)', columns: [text('category'), num('µs'), pct('share'), text('examples')],
      rows: a.timeline_breakdown.map((e) => [e.category, numCell(e.duration_us), numCell(e.percentage / 100), list(e.examples)]),
    },
    {
      id: 'findings', title: 'Findings', columns: [text('priority'), text('action'), text('rationale'), num('estimated improvement %'), text('evidence')],
      rows: a.suggestions.slice(0, MAX_FORMAT_ROWS).map((f) => [f.priority, textCell(f.action), textCell(f.rationale), numCell(f.estimated_improvement_percent), list(f.evidence)]),
    },
  ];
}
