import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChromeTraceExporter } from '../../../core/export/chromeTrace';
import { FLAG, KIND, NO_LINE, type TimelineModel } from '../../../core/timeline/model';
import { perfettoTimeline } from '../../../core/perfetto/timeline';
import { androidSystemTrace, emptyTrace, ftracePrints, sdkTrace, TraceWriter } from '../../gen/perfettoGen';

/** Every item as `track path: name [start, end]`. */
function items(m: TimelineModel): string[] {
  const out: string[] = [];
  const path = (t: number): string => (m.tracks[t].parent < 0 ? m.tracks[t].name : `${path(m.tracks[t].parent)} / ${m.tracks[t].name}`);
  m.tracks.forEach((t, k) => {
    if (t.kind !== 'slices') return;
    for (let r = t.rowStart; r < t.rowStart + t.rowCount; r++) {
      for (let i = m.rowItemStart[r]; i < m.rowItemStart[r + 1]; i++) {
        const inst = m.items.flags[i] & FLAG.instant;
        out.push(`${path(k)}: ${m.strings[m.items.name[i]]} ${inst ? `@${m.items.start[i]}` : `[${m.items.start[i]}, ${m.items.end[i]}]`}`);
      }
    }
  });
  return out.sort();
}

function exported(m: TimelineModel): { ph: string; name: string; pid: number; tid: number; ts: number; dur?: number }[] {
  const e = new ChromeTraceExporter(m, { source: 'x.pftrace' });
  return (JSON.parse(e.head() + e.tail()) as { traceEvents: { ph: string; name: string; pid: number; tid: number; ts: number; dur?: number }[] }).traceEvents;
}

describe('perfetto timeline', () => {
  it('an Android system trace: process → thread tracks, nested atrace slices, the async slice, the counter row', () => {
    const m = perfettoTimeline(androidSystemTrace());
    assert.equal(m.format, 'perfetto');
    assert.equal(m.unit, 'ns');
    assert.deepEqual(items(m), [
      'com.android.systemui 1234 / RenderThread 1250: DrawFrames 42 [150000, 900000]',
      'com.android.systemui 1234 / launching: com.example: launching: com.example [400000, 2000000]',
      'com.android.systemui 1234 / ndroid.systemui 1234: Choreographer#doFrame 42 [0, 500000]',
      'com.android.systemui 1234 / ndroid.systemui 1234: traversal [100000, 300000]',
      '/system/bin/surfaceflinger 600 / surfaceflinger 600: onMessageInvalidate [950000, 990000]',
    ].sort());
    assert.deepEqual(m.counters.map((c) => c.name), ['frames pending']);
    // The nested slice is in a lane below its parent.
    const ui = m.tracks.find((t) => t.name === 'ndroid.systemui 1234')!;
    assert.equal(ui.rowCount, 2);
    // Each item's source: line 0, the byte offset of its begin and end events.
    assert.ok(m.chars);
    for (let i = 0; i < m.items.start.length; i++) {
      assert.equal(m.items.line[i], 0);
      assert.ok(m.chars.char[i] > 0 && m.chars.endChar[i] > m.chars.char[i]);
    }
  });

  it('an SDK track-event trace with epoch timestamps: thread tracks of the app, instants, the counter with its unit', () => {
    const m = perfettoTimeline(sdkTrace());
    const all = items(m);
    assert.equal(all.filter((s) => s.includes('[')).length, 6);
    assert.ok(all.includes('com.example.inference 4242 / main 4243: RunInference [0, 2000000]'));
    assert.ok(all.includes('com.example.inference 4242 / worker-1 4244: checkpoint @1501000'));
    assert.deepEqual(m.counters.map((c) => [c.name, c.unit]), [['queue depth', 'requests']]);
    assert.deepEqual(m.strings.filter((s) => s === 'inference'), ['inference'], 'the category is the phase attribute');
  });

  it('a trace with no events: an empty model', () => {
    const m = perfettoTimeline(emptyTrace());
    assert.equal(m.items.start.length, 0);
    assert.equal(m.tracks.length, 0);
  });

  it('exports every slice, instant and counter to Chrome JSON in µs', () => {
    for (const bytes of [androidSystemTrace({ marks: 4 }), sdkTrace({ slices: 7, threads: 3 })]) {
      const m = perfettoTimeline(bytes);
      const ev = exported(m);
      const spans = m.items.start.filter((_, i) => !(m.items.flags[i] & FLAG.instant)).length;
      assert.equal(ev.filter((e) => e.ph === 'X').length, spans);
      assert.equal(ev.filter((e) => e.ph === 'i').length, m.items.start.length - spans);
      assert.ok(ev.some((e) => e.ph === 'C'));
      const x = ev.find((e) => e.ph === 'X')!;
      assert.equal(typeof x.ts, 'number');
      assert.ok(ev.every((e) => e.ph !== 'X' || (e.dur! >= 0 && e.dur! < 10_000)), 'durations in µs');
    }
  });

  it('an unclosed slice runs to the end marked; a lone end is a marker', () => {
    const t = new TraceWriter();
    ftracePrints(t, [{ ts: 100n, tid: 5, buf: 'E|5' }, { ts: 200n, tid: 5, buf: 'B|5|open' }, { ts: 900n, tid: 6, buf: 'B|6|x' }, { ts: 1000n, tid: 6, buf: 'E|6' }]);
    const m = perfettoTimeline(t.finish());
    const at = (name: string) => m.items.name.findIndex((n) => m.strings[n] === name);
    const open = at('open'), lone = at('E');
    assert.equal(m.items.end[open], m.t1);
    assert.ok(m.items.flags[open] & FLAG.unmatchedStart);
    assert.ok(m.items.flags[open] & FLAG.invalid, 'its begin has a diagnostic');
    assert.equal(m.items.kind[lone], KIND.marker);
    assert.ok(m.items.flags[lone] & FLAG.unmatchedEnd);
    assert.equal(m.items.endLine[open], NO_LINE);
    assert.ok(!(m.items.flags[at('x')] & FLAG.invalid));
  });
});
