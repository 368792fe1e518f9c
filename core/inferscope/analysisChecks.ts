import { escapeControl } from '../common/escape';
import { clip } from '../common/clip';
import { num, type ParsedInferscope } from './model';
import { locate } from './parser';
import { writtenNumber } from './eventChecks';
import type { Report } from '../json/report';

/** The §4.2 tolerance of the breakdown's percentage sum. */
export const PERCENT_SUM_TOLERANCE = 5;
/** A percentage may differ from duration / latency by this much (rounding to one decimal and more). */
const PERCENT_TOLERANCE = 0.5;

/** Which summary total bounds each breakdown category: the exclusive share never exceeds the union. */
const TOTAL_OF: Record<string, string> = {
  gpu_compute: 'total_gpu_time_us', h2d_copy: 'total_h2d_us', d2h_copy: 'total_d2h_us',
  cpu_preprocessing: 'total_cpu_time_us', idle: 'total_idle_us',
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

/**
 * The §4.2 constraints of an analysis result whose object starts at `start` (the file's root, or a
 * report's `analysis`), and the consistency of the breakdown with the summary.
 */
export function analysisChecks(doc: ParsedInferscope, a: Obj, start: number, report: Report): void {
  const text = doc.text;
  const value = (path: (string | number)[]): [number, number] => {
    const at = locate(text, start, path);
    return at ? [at.valueStart, at.valueEnd] : [start, start + 1];
  };
  const key = (path: (string | number)[]): [number, number] => {
    const at = locate(text, start, path);
    return at ? [at.keyStart, at.keyEnd] : [start, start + 1];
  };
  const summary = obj(a.summary);
  const latency = num(summary?.end_to_end_latency_us);
  const breakdown = Array.isArray(a.timeline_breakdown) ? a.timeline_breakdown : undefined;
  if (breakdown && breakdown.length) {
    let sum = 0;
    for (const b of breakdown) sum += num(obj(b)?.percentage) ?? 0;
    if (Math.abs(sum - 100) > PERCENT_SUM_TOLERANCE) {
      const [x, y] = key(['timeline_breakdown']);
      report(x, y, 'warning', 'inferscope.percent-sum', `The timeline_breakdown percentages sum to ${Math.round(sum * 100) / 100}%, outside 100 ± ${PERCENT_SUM_TOLERANCE}%: the categories must account for the whole timeline`);
    }
    breakdown.forEach((raw, i) => {
      const b = obj(raw);
      const cat = typeof b?.category === 'string' ? b.category : undefined;
      const d = num(b?.duration_us);
      const pct = num(b?.percentage);
      if (!b || d === undefined) return;
      const name = cat !== undefined ? `"${escapeControl(clip(cat, 40))}"` : `#${i}`;
      if (latency !== undefined && latency > 0 && pct !== undefined) {
        const expected = (d / latency) * 100;
        if (Math.abs(expected - pct) > PERCENT_TOLERANCE) {
          const [x, y] = value(['timeline_breakdown', i, 'duration_us']);
          report(x, y, 'warning', 'inferscope.summary-mismatch',
            `duration_us ${writtenNumber(doc, x, y, d)} of ${name} is ${Math.round(expected * 10) / 10}% of end_to_end_latency_us ${latency}, but its percentage says ${pct}%`);
          return;
        }
      }
      if (latency !== undefined && d > latency + 1) {
        const [x, y] = value(['timeline_breakdown', i, 'duration_us']);
        report(x, y, 'warning', 'inferscope.summary-mismatch', `duration_us ${writtenNumber(doc, x, y, d)} of ${name} exceeds end_to_end_latency_us ${latency}`);
        return;
      }
      const totalKey = cat !== undefined && Object.hasOwn(TOTAL_OF, cat) ? TOTAL_OF[cat] : undefined;
      const total = totalKey ? num(summary?.[totalKey]) : undefined;
      if (total === undefined) return;
      // gpu_compute has the top priority, so all GPU time is its own; the others get what is left.
      const bad = cat === 'gpu_compute' ? Math.abs(d - total) > 1 : d > total + 1;
      if (!bad) return;
      const [x, y] = value(['timeline_breakdown', i, 'duration_us']);
      report(x, y, 'warning', 'inferscope.summary-mismatch', cat === 'gpu_compute'
        ? `duration_us ${writtenNumber(doc, x, y, d)} of "gpu_compute" differs from summary.total_gpu_time_us ${total}: GPU compute has the top priority, so the two are equal`
        : `duration_us ${writtenNumber(doc, x, y, d)} of ${name} exceeds summary.${totalKey} ${total}: an exclusive share cannot exceed the category's total time`);
    });
  }
  const bn = obj(a.bottleneck);
  const conf = num(bn?.confidence);
  if (conf !== undefined && (conf < 0 || conf > 1)) {
    const [x, y] = value(['bottleneck', 'confidence']);
    report(x, y, 'error', 'inferscope.confidence-range', `bottleneck.confidence ${conf} is outside [0.0, 1.0]`);
  }
  const evidence = Array.isArray(bn?.evidence) ? bn.evidence.length : 0;
  if (bn && evidence === 0) {
    const [x, y] = bn.evidence === undefined ? key(['bottleneck']) : key(['bottleneck', 'evidence']);
    report(x, y, 'warning', 'inferscope.no-evidence', 'The bottleneck has no evidence: each conclusion must be backed by at least one measured fact (§4.2)');
  }
  const sugg = Array.isArray(a.suggestions) ? a.suggestions : [];
  sugg.forEach((raw, i) => {
    const s = obj(raw);
    if (!s || evidence > 0) return;
    if (Array.isArray(s.evidence) && s.evidence.length > 0) return;
    const [x, y] = s.action !== undefined ? value(['suggestions', i, 'action']) : value(['suggestions', i]);
    report(x, y, 'warning', 'inferscope.no-evidence', 'This suggestion has no evidence of its own and the bottleneck lists none to back it (§4.2)');
  });
}
