import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { analyze } from '../../../core/nnapi/analysis';
import { SystraceStream } from '../../../core/nnapi/collect';
import { nnapiSummaryTables } from '../../../core/nnapi/summaryTables';
import { BUSIEST_PER_TRACK, SliceTally } from '../../../core/perfetto/summaryTables';
import { perfettoTimeline } from '../../../core/perfetto/timeline';
import { MAX_FORMAT_ROWS } from '../../../core/timeline/formatTables';
import { timelineStatusText } from '../../../client/statusBarText';
import { androidSystemTrace, emptyTrace, sdkTrace, systraceToPerfetto } from '../../gen/perfettoGen';

describe('perfetto Summary tables', () => {
  it('busiest slices per thread: each track\'s slice names by total time, with counts, longest and share', () => {
    const m = perfettoTimeline(androidSystemTrace({ marks: 2 }));
    const t = m.summaryTables!.find((x) => x.id === 'busiest-slices')!;
    assert.deepEqual(t.columns.map((c) => c.label), ['track', 'slice', 'count', 'total ms', 'max ms', 'share of track']);
    assert.deepEqual(t.rows, [
      ['/system/bin/surfaceflinger 600 / surfaceflinger 600', 'onMessageInvalidate', 2, 0.08, 0.04, 1],
      ['com.android.systemui 1234 / RenderThread 1250', 'DrawFrames 42', 2, 1.5, 0.75, 1],
      ['com.android.systemui 1234 / launching: com.example', 'launching: com.example', 2, 3.2, 1.6, 1],
      // Choreographer#doFrame 42 holds traversal: both count (0.5 + 0.2 ms per frame).
      ['com.android.systemui 1234 / ndroid.systemui 1234', 'Choreographer#doFrame 42', 2, 1, 0.5, 1 / 1.4], // 1 of the thread's 1.4 ms of slice time,
      ['com.android.systemui 1234 / ndroid.systemui 1234', 'traversal', 2, 0.4, 0.2, 0.2857142857142857],
    ]);
    // No NNAPI marks: no NNAPI tables.
    assert.deepEqual(m.summaryTables!.map((x) => x.id), ['busiest-slices']);
  });

  it('SDK track events (epoch ns, no clock snapshot) and a trace with no events', () => {
    const sdk = perfettoTimeline(sdkTrace()).summaryTables![0];
    assert.ok(sdk.rows.length > 0 && sdk.rows.every((r) => typeof r[3] === 'number' && (r[3]) >= 0), JSON.stringify(sdk.rows));
    assert.deepEqual(perfettoTimeline(emptyTrace()).summaryTables![0].rows, []);
  });

  it('an NNAPI protobuf trace: the timing summary tables of its text systrace, after the busiest slices', () => {
    const text = readFileSync('examples/nnapi-mobilenet.systrace', 'utf8');
    const s = new SystraceStream();
    text.split(/\r?\n/).forEach((l, i) => s.line(l, i));
    const want = nnapiSummaryTables(analyze(s.collector));
    const got = perfettoTimeline(systraceToPerfetto(text)).summaryTables!;
    assert.equal(got[0].id, 'busiest-slices');
    assert.deepEqual(got.slice(1), want);
    assert.ok(want.some((t) => t.id === 'runs') && want.some((t) => /self-times/.test(t.id)));
  });

  it('keeps the busiest names per track and caps the rows', () => {
    const tally = new SliceTally();
    for (let k = 0; k < 200; k++) for (let n = 0; n < 30; n++) tally.add(k, `s${n}`, (n + 1) * 1e6);
    tally.add(0, 'never closed', Number.NaN);
    const t = tally.table((k) => `track ${String(k).padStart(3, '0')}`);
    assert.equal(t.rows.length, MAX_FORMAT_ROWS);
    assert.deepEqual(t.rows.slice(0, BUSIEST_PER_TRACK).map((r) => r[1]), ['s29', 's28', 's27', 's26', 's25', 's24', 's23', 's22', 's21', 's20']);
    assert.ok(!t.rows.some((r) => r[1] === 'never closed'));
  });
});

describe('the read-only timeline editor\'s status item', () => {
  it('says events, span (in the model\'s unit) and problems; the file name is escaped', () => {
    const m = perfettoTimeline(androidSystemTrace({ marks: 2 }));
    const f = { format: m.format, items: m.items.start.length, tracks: m.tracks.length, span: m.t1 - m.t0, unit: m.unit, nsPerCycle: m.nsPerCycle };
    assert.equal(timelineStatusText(f, 0, 'a.pftrace').text, `$(pulse) ${f.items} events · 5.00 ms · 0 problems`);
    assert.equal(timelineStatusText({ ...f, items: 1 }, 1, 'a').text, '$(warning) 1 event · 5.00 ms · 1 problem');
    assert.equal(timelineStatusText({ ...f, unit: undefined, nsPerCycle: undefined, span: 1200 }, 0, 'a').text, `$(pulse) ${f.items} events · 1,200 cycles · 0 problems`);
    assert.equal(timelineStatusText({ ...f, items: 0, span: 0 }, 0, 'a').text, '$(pulse) 0 events · — · 0 problems');
    assert.ok(!timelineStatusText(f, 0, 'a\u202eb.pftrace').tooltip.includes('\u202e'));
  });
});
