import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyze, percentages } from '../../../core/inferscope/analyze';
import { InferscopeDocument } from '../../../core/inferscope/document';
import { toHtml, toMarkdown, toReport } from '../../../core/inferscope/reportOutput';
import { inferscopeTrace, pretty } from '../../gen/inferscopeGen';
import { rows } from './helpers';

type Ev = Record<string, unknown>;
let n = 0;
const ev = (type: string, name: string, a: number, b: number, metadata: Ev = {}): Ev =>
  ({ id: `e${n++}`, type, name, timestamp_start_us: a, timestamp_end_us: b, duration_us: b - a, metadata });
const trace = (events: Ev[]) => InferscopeDocument.parse(pretty({ format_version: '1.0', events }));

describe('npu-trace analyze: numbers', () => {
  it('unions count overlap once; the exclusive breakdown follows the priority; idle gaps and instants', () => {
    const a = analyze(trace([
      ev('cpu_call', 'tokenize', 0, 100, { thread_id: 1 }),
      ev('memory_event', 'malloc', 50, 60, { operation: 'malloc' }),
      ev('h2d_copy', 'copy_in', 100, 150, { device_id: 0, kind: 'pinned' }),
      ev('gpu_kernel', 'k1', 150, 250, { device_id: 0, stream_id: 7 }),
      ev('gpu_kernel', 'k2', 200, 300, { device_id: 0, stream_id: 8 }),
      ev('cpu_call', 'sync', 220, 260, { thread_id: 1 }),
      ev('d2h_copy', 'copy_out', 300, 320, { device_id: 0 }),
      { id: 'i', type: 'instant', name: 'done', timestamp_us: 400 },
    ]));
    assert.deepEqual(a.summary, {
      end_to_end_latency_us: 400, total_cpu_time_us: 140, total_gpu_time_us: 150, total_h2d_us: 50, total_d2h_us: 20, total_idle_us: 180, framework_overhead_us: 80,
    });
    assert.deepEqual(a.timeline_breakdown.map((b) => [b.category, b.duration_us, b.percentage, b.examples]), [
      ['gpu_compute', 150, 37.5, ['k1', 'k2']],
      ['h2d_copy', 50, 12.5, ['copy_in']],
      ['d2h_copy', 20, 5, ['copy_out']],
      ['cpu_preprocessing', 100, 25, ['tokenize']],
      ['idle', 80, 20, []],
    ]);
    assert.equal(a.bottleneck.type, 'balanced');
    assert.equal(a.bottleneck.primary_cause, 'gpu_compute');
  });

  it('framework_overhead_us: untraced time inside scopes, not the gaps between them', () => {
    // Request 0 (events 0-2) spans 0-250 with nothing running 100-120 and 130-150 (kernel k0 covers
    // 120-130); request 1 (events 3-5) spans 300-700 with nothing running 360-600 (the malloc runs
    // 340-360). 250-300 lies between the requests: idle, but no framework overhead. Hand-computed:
    // 20 + 20 + 240 = 280.
    const text = pretty({
      format_version: '1.0',
      events: [
        ev('cpu_call', 'prep0', 0, 100, { thread_id: 1 }), ev('gpu_kernel', 'k0', 120, 130, { device_id: 0 }), ev('gpu_kernel', 'g0', 150, 250, { device_id: 0 }),
        ev('cpu_call', 'prep1', 300, 350, { thread_id: 1 }), ev('memory_event', 'malloc', 340, 360, { operation: 'malloc' }), ev('gpu_kernel', 'g1', 600, 700, { device_id: 0 }),
      ],
      relationships: { scopes: [
        { id: 'all', name: 'inference', parent_id: null, child_ids: ['r0', 'r1'], event_range: [0, 5] },
        { id: 'r0', name: 'request', parent_id: 'all', child_ids: [], event_range: [0, 2] },
        { id: 'r1', name: 'request', parent_id: 'all', child_ids: [], event_range: [3, 5] },
      ] },
    });
    // The root scope covers 0-700, so the 250-300 gap between the requests counts once it is in a scope.
    assert.equal(analyze(InferscopeDocument.parse(text)).summary.framework_overhead_us, 20 + 20 + 50 + 240);
    const requestsOnly = text.replace('"event_range": [\n          0,\n          5\n        ]', '"event_range": [\n          0,\n          0\n        ]');
    assert.notEqual(requestsOnly, text);
    const a = analyze(InferscopeDocument.parse(requestsOnly));
    assert.equal(a.summary.framework_overhead_us, 280);
    assert.match(toMarkdown(a, 't.json'), /framework overhead \(untraced time inside scopes\) 0\.28 ms/);
    assert.match(toHtml(a, 't.json'), /Framework overhead \(untraced time inside scopes\): 0\.28 ms/);
  });

  it('percentages sum to exactly 100', () => {
    assert.deepEqual(percentages([1, 1, 1], 3), [33.4, 33.3, 33.3]);
    for (const d of [[1, 2, 3, 4, 5], [7, 7, 7, 7, 7], [0, 0, 0, 0, 1], [123.4, 5.6, 0.01, 999, 3]]) {
      const total = d.reduce((x, y) => x + y, 0);
      assert.equal(Math.round(percentages(d, total).reduce((x, y) => x + y, 0) * 10), 1000, String(d));
    }
  });

  it('a CPU-bound trace: the bottleneck, its evidence quotes the numbers, a suggestion backs it', () => {
    const a = analyze(trace([ev('cpu_call', 'tokenize', 0, 800, { thread_id: 1 }), ev('gpu_kernel', 'gemm', 800, 1000, { device_id: 0, stream_id: 0 })]));
    assert.equal(a.bottleneck.type, 'cpu_bound');
    assert.equal(a.bottleneck.primary_cause, 'cpu_preprocessing');
    assert.ok(a.bottleneck.confidence > 0.5 && a.bottleneck.confidence <= 0.95);
    assert.match(a.bottleneck.evidence[0], /80% of the timeline/);
    assert.match(a.bottleneck.evidence[0], /mostly tokenize/);
    const s = a.suggestions.find((x) => x.action === 'Overlap CPU preprocessing with GPU work')!;
    assert.ok(s.evidence.length > 0 && s.estimated_improvement_percent > 0);
  });

  it('GPU-bound with a low-occupancy kernel; memory-bound with pageable copies', () => {
    const g = analyze(trace([ev('gpu_kernel', 'gemm', 0, 900, { device_id: 0, stream_id: 0, occupancy: 0.25 }), ev('cpu_call', 'prep', 900, 1000)]));
    assert.equal(g.bottleneck.type, 'gpu_bound');
    assert.ok(g.suggestions.some((x) => x.action === 'Raise the occupancy of gemm' && /25%/.test(x.rationale)));
    const m = analyze(trace([ev('h2d_copy', 'in', 0, 500, { device_id: 0, kind: 'pageable', bytes: 1 << 20 }), ev('gpu_kernel', 'k', 500, 700, { device_id: 0 }), ev('d2h_copy', 'out', 700, 1000, { device_id: 0 })]));
    assert.equal(m.bottleneck.type, 'memory_bound');
    assert.equal(m.bottleneck.primary_cause, 'h2d_copy');
    assert.ok(m.suggestions.some((x) => x.action === 'Enable pinned memory'));
  });

  it('the result and its report pass our own §4.2 checks', () => {
    const doc = InferscopeDocument.parse(pretty(inferscopeTrace({ requests: 5 })));
    const a = analyze(doc);
    assert.equal(a.timeline_breakdown.reduce((x, b) => x + b.percentage, 0).toFixed(1), '100.0');
    assert.equal(a.timeline_breakdown[0].duration_us, a.summary.total_gpu_time_us);
    assert.deepEqual(rows(pretty(a)), []);
    assert.equal(InferscopeDocument.parse(pretty(a)).kind, 'analysis');
    const rep = toReport(a, '2025-12-27T10:35:12.456Z');
    assert.deepEqual(rows(pretty(rep)), []);
    assert.equal(rep.recommendations.length, a.suggestions.length);
  });

  it('markdown and HTML: self-contained, breakdown as inline SVG, names from the trace escaped', () => {
    const a = analyze(trace([ev('gpu_kernel', '<img src=x onerror=alert(1)>', 0, 900, { device_id: 0 }), ev('cpu_call', '[x](https://evil)', 900, 1000)]));
    const html = toHtml(a, 'run.inferscope.json');
    assert.match(html, /<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.doesNotMatch(html, /<(img|script|link|iframe|object)\b|\s(src|href)="|url\(|@import/i);
    assert.match(html, /&#60;img src=x onerror=alert\(1\)&#62;/);
    const md = toMarkdown(a, 'run.inferscope.json');
    assert.doesNotMatch(md, /\[x\]\(https/);
    assert.match(md, /\| GPU compute \| 0\.9 ms \| 90% \|/);
  });
});
