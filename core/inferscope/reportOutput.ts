import { escapeHtmlText, escapeMarkdown, markdownCode } from '../common/escape';
import type { AnalysisResult } from './analysisResult';

/** The §3.2 report of an analysis, as JSON. `timestamp` comes from the trace, so output is reproducible. */
export interface Report {
  report_type: 'json';
  title: string;
  timestamp: string;
  summary: string;
  analysis: AnalysisResult;
  timeline_sections: { title: string; data: AnalysisResult['timeline_breakdown'] }[];
  recommendations: { title: string; description: string; impact: string }[];
}

const LABEL: Record<string, string> = {
  gpu_compute: 'GPU compute', h2d_copy: 'H2D copy', d2h_copy: 'D2H copy', cpu_preprocessing: 'CPU preprocessing', idle: 'idle',
};
const COLOUR: Record<string, string> = { gpu_compute: '#4e79a7', h2d_copy: '#f28e2b', d2h_copy: '#edc948', cpu_preprocessing: '#59a14f', idle: '#bab0ac' };

/**
 * Which layout the analysis read, said in each report (the two are read differently: see
 * docs/formats/inferscope.md), with the field names in backticks for markdown.
 */
export function layoutText(a: AnalysisResult, tick = ''): string {
  const c = (s: string) => `${tick}${s}${tick}`;
  return a.trace_layout === 'profiler'
    ? `Read as the layout InferScope's Profiler writes (${c('{"events": [...]}')}): calls paired from ${c('cpu_call')} / ${c('cpu_return')}, scopes from ${c('scope_enter')} / ${c('scope_exit')}, kernels and copies ending at their ${c('timestamp_us')}.`
    : `Read as the data model layout (${c('format_version')}, events with ids, ${c('relationships.scopes')}).`;
}

export function summaryText(a: AnalysisResult): string {
  const b = a.bottleneck;
  const what = b.type === 'balanced' ? 'No single bottleneck' : `${b.type.replace('_', '-')} (${LABEL[b.primary_cause] ?? b.primary_cause})`;
  return `${what}, confidence ${b.confidence}: end-to-end ${a.summary.end_to_end_latency_us / 1000} ms; GPU compute ${a.timeline_breakdown[0].percentage}%, idle ${a.timeline_breakdown[4].percentage}%.`;
}

export function toReport(a: AnalysisResult, timestamp: string): Report {
  return {
    report_type: 'json', title: 'InferScope Performance Report', timestamp, summary: summaryText(a), analysis: a,
    timeline_sections: [{ title: 'Timeline Breakdown', data: a.timeline_breakdown }],
    recommendations: a.suggestions.map((s) => ({ title: s.action, description: s.rationale, impact: `Estimated improvement: ${s.estimated_improvement_percent}%` })),
  };
}

/** A line of the markdown report that cites events: the editor links it to them in the timeline. */
export interface Citation {
  /** 0-based line of the report. */
  line: number;
  ids: string[];
}

/** The prefix of a citation line, after the list marker. */
export const CITES = 'Events: ';

/** Event names in `examples` come from the trace: escaped like every file value. */
export function toMarkdown(a: AnalysisResult, source: string): string {
  return markdownReport(a, source).text;
}

/** The markdown report, and its lines that cite events (one per finding that cites any). */
export function markdownReport(a: AnalysisResult, source: string): { text: string; citations: Citation[] } {
  const citations: Citation[] = [];
  const cite = (ids: readonly string[], indent: string) => {
    if (!ids.length) return;
    citations.push({ line: out.length, ids: [...ids] });
    out.push(`${indent}- ${CITES}${ids.map((id) => markdownCode(id, 80)).join(', ')}`);
  };
  const out = [`# InferScope Performance Report`, '', `Trace: ${escapeMarkdown(source)}`, '', layoutText(a, '`'), '', summaryText(a), '', '## Timeline breakdown', '',
    '| category | duration | share | largest contributors |', '|---|---:|---:|---|'];
  for (const b of a.timeline_breakdown) out.push(`| ${LABEL[b.category]} | ${b.duration_us / 1000} ms | ${b.percentage}% | ${b.examples.map((x) => escapeMarkdown(x, 80)).join(', ')} |`);
  const s = a.summary;
  out.push('', `Totals (interval unions): CPU ${s.total_cpu_time_us / 1000} ms, GPU ${s.total_gpu_time_us / 1000} ms, H2D ${s.total_h2d_us / 1000} ms, D2H ${s.total_d2h_us / 1000} ms, GPU idle ${s.total_idle_us / 1000} ms; framework overhead (untraced time inside scopes) ${s.framework_overhead_us / 1000} ms.`);
  out.push('', `## Bottleneck: ${a.bottleneck.type}`, '', `Primary cause ${a.bottleneck.primary_cause}, confidence ${a.bottleneck.confidence}.`, '');
  for (const e of a.bottleneck.evidence) out.push(`- ${escapeMarkdown(e, 400)}`);
  cite(a.bottleneck.event_ids, '');
  out.push('', '## Suggestions', '');
  if (!a.suggestions.length) out.push('None.');
  a.suggestions.forEach((x, i) => {
    out.push(`${i + 1}. **${escapeMarkdown(x.action, 200)}** (${x.priority}, about ${x.estimated_improvement_percent}% faster): ${escapeMarkdown(x.rationale, 400)}`);
    for (const e of x.evidence) out.push(`   - ${escapeMarkdown(e, 400)}`);
    cite(x.event_ids, '   ');
  });
  return { text: `${out.join('\n')}\n`, citations };
}

/** The breakdown as one stacked horizontal bar, in SVG written inline (no remote loads). */
export function breakdownSvg(a: AnalysisResult): string {
  // Each legend entry as wide as its label (under 7 px a character at 11 px), so none overlaps the next.
  let lx = 0;
  const legend = a.timeline_breakdown.map((b) => {
    const label = `${LABEL[b.category]} ${b.percentage}%`;
    const at = lx;
    lx += 14 + Math.ceil(label.length * 6.8) + 12;
    return `<rect x="${at}" y="32" width="10" height="10" fill="${COLOUR[b.category]}"/><text x="${at + 14}" y="41" font-size="11" fill="currentColor">${label}</text>`;
  });
  const W = Math.max(600, lx);
  let x = 0;
  const parts: string[] = [];
  for (const b of a.timeline_breakdown) {
    const w = (b.percentage / 100) * W;
    if (w > 0) parts.push(`<rect x="${x.toFixed(2)}" y="0" width="${w.toFixed(2)}" height="24" fill="${COLOUR[b.category]}"><title>${LABEL[b.category]} ${b.percentage}%</title></rect>`);
    x += w;
  }
  // Scales down to a narrow view (the editor's report beside its trace) instead of being cut off.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100%" style="max-width:${W}px" viewBox="0 0 ${W} 48" role="img" aria-label="timeline breakdown">${parts.join('')}${legend.join('')}</svg>`;
}

/**
 * Where a finding's Events line points, or undefined for none: the editor passes command links
 * (its webview allows that one command), a file on disk gets plain text.
 */
export type CiteLink = (ids: readonly string[]) => string | undefined;

/**
 * One self-contained HTML file: inline style and SVG, no script, no remote resource. With `link`,
 * each finding's cited events are a link (the editor's report view); without, plain text.
 */
export function toHtml(a: AnalysisResult, source: string, link?: CiteLink): string {
  const h = (s: string, max = 400) => escapeHtmlText(s, max);
  const cite = (ids: readonly string[]) => {
    if (!ids.length) return '';
    const text = `${CITES}${ids.map((id) => `<code>${h(id, 80)}</code>`).join(', ')}`;
    const href = link?.(ids);
    return `<p class="cite">${href ? `<a href="${escapeHtmlText(href, Infinity)}" title="Show these events in the timeline">${text}</a>` : text}</p>`;
  };
  const rows = a.timeline_breakdown.map((b) => `<tr><td>${LABEL[b.category]}</td><td class="n">${b.duration_us / 1000} ms</td><td class="n">${b.percentage}%</td><td>${b.examples.map((x) => h(x, 80)).join(', ')}</td></tr>`).join('\n');
  const ev = a.bottleneck.evidence.map((e) => `<li>${h(e)}</li>`).join('');
  const sg = a.suggestions.map((x) => `<li><b>${h(x.action)}</b> (${x.priority}, about ${x.estimated_improvement_percent}% faster): ${h(x.rationale)}<ul>${x.evidence.map((e) => `<li>${h(e)}</li>`).join('')}</ul>${cite(x.event_ids)}</li>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>InferScope Performance Report</title>
<style>body{font:14px system-ui,sans-serif;max-width:820px;margin:2em auto;padding:0 1em}table{border-collapse:collapse}td,th{border:1px solid #8888;padding:3px 8px}.n{text-align:right}.cite{margin:.3em 0}</style></head>
<body><h1>InferScope Performance Report</h1>
<p>Trace: <code>${h(source)}</code></p>
<p>${h(layoutText(a))}</p>
<p>${h(summaryText(a))}</p>
<p>Framework overhead (untraced time inside scopes): ${a.summary.framework_overhead_us / 1000} ms.</p>
<h2>Timeline breakdown</h2>
${breakdownSvg(a)}
<table><tr><th>category</th><th>duration</th><th>share</th><th>largest contributors</th></tr>
${rows}
</table>
<h2>Bottleneck: ${a.bottleneck.type}</h2>
<p>Primary cause ${h(a.bottleneck.primary_cause)}, confidence ${a.bottleneck.confidence}.</p>
<ul>${ev}</ul>
${cite(a.bottleneck.event_ids)}
<h2>Suggestions</h2>
<ol>${sg || '<li>None.</li>'}</ol>
</body></html>
`;
}
