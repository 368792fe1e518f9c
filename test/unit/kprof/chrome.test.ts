// The Chrome Trace export of a buffer (core/kprof/chrome.ts): a span per region in its block's
// process and its group's thread, the two records as args exactly as the details pane shows them
// (recordJson agrees with recordFields for every layout, the timer wrap and names with quotes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kprofChromeTrace } from '../../../core/kprof/chrome';
import { decode } from '../../../core/kprof/decode';
import { detectLayout } from '../../../core/kprof/layouts';
import { recordFields, recordJson } from '../../../core/kprof/records';
import { splitLines } from '../../../core/common/lines';
import { buildTimeline } from '../../../core/detectFormat';
import { kprofTimeline } from '../../../core/kprof/timeline';
import type { TimelineModel } from '../../../core/timeline/model';
import { genKprof, regionsProgram, warpSpecProgram } from '../../gen/kprofGen';

const fieldsObject = (pairs: [string, string][]) => Object.fromEntries(pairs.map(([k, v]) => [k, JSON.parse(v) as unknown]));

describe('kprof Chrome Trace export', () => {
  const cases = {
    tvm: genKprof({ blocks: 3, groups: 2 }),
    wrapped: genKprof({ blocks: 2, startNs: 2 ** 32 - 5000 }),
    flashinfer: genKprof({ blocks: 3, groups: 2, finalize: false, program: () => regionsProgram([[0, 100], [5, 250]]), pack: (bg, ev, type) => ((100 + Math.floor(bg / 2)) << 24) | (bg << 12) | (ev << 2) | type }),
  };
  for (const [name, g] of Object.entries(cases)) {
    it(`${name}: recordJson is recordFields as one object, for every slot`, () => {
      const buf = { words: g.words, slots: g.slots };
      const d = decode(buf, { layout: detectLayout(g.words, g.slots), names: ['ld "x"', 'c\\d'] });
      if (name === 'wrapped') assert.equal(d.timerWrapped, true);
      for (let s = 1; s < g.slots; s++) {
        if (!g.words[2 * s] && !g.words[2 * s + 1]) continue;
        assert.deepEqual(JSON.parse(recordJson(buf, d, s)), fieldsObject(recordFields(buf, d, s)), `slot ${s}`);
      }
    });
  }
  it('a span per region in pid "block b", tid "group g", at its ns in µs, with its START and END records', () => {
    const g = cases.tvm;
    const buf = { words: g.words, slots: g.slots };
    const d = decode(buf);
    let text = '';
    kprofChromeTrace(buf, d, 'x.kprof.npy', (s) => { text += s; });
    const doc = JSON.parse(text) as { otherData: { source: string }; traceEvents: { ph: string; name: string; pid: number; tid: number; ts: number; dur: number; args: { name?: string; event: { slot: number; block: number; group: number }; end_event: { slot: number } } }[] };
    assert.equal(doc.otherData.source, 'x.kprof.npy');
    const named = (what: string) => new Map(doc.traceEvents.filter((e) => e.name === what).map((e) => [what === 'process_name' ? `${e.pid}` : `${e.pid}/${e.tid}`, e.args.name]));
    const pids = named('process_name'), tids = named('thread_name');
    assert.deepEqual([...pids.values()], ['block 0', 'block 1', 'block 2']);
    const spans = doc.traceEvents.filter((e) => e.ph === 'X');
    assert.equal(spans.length, d.regionCount);
    for (let i = 0; i < d.regionCount; i++) {
      const e = spans.find((x) => x.args.event.slot === d.regStartSlot[i])!;
      assert.equal(e.args.end_event.slot, d.regEndSlot[i]);
      assert.equal(pids.get(`${e.pid}`), `block ${Math.floor(d.regLane[i] / 2)}`);
      assert.equal(tids.get(`${e.pid}/${e.tid}`), `group ${d.regLane[i] % 2}`);
      assert.equal(e.ts, d.regStart[i] / 1000);
      assert.equal(e.dur, (d.regEnd[i] - d.regStart[i]) / 1000);
    }
  });
});

describe('the Chrome export read back by the Chrome Trace importer (Perfetto itself is not run here)', () => {
  const spans = (m: TimelineModel, toNs: number) => {
    const trackOfRow: number[] = [];
    m.tracks.forEach((t, k) => { for (let r = 0; r < t.rowCount; r++) trackOfRow[t.rowStart + r] = k; });
    const out: string[] = [];
    for (let r = 0; r + 1 < m.rowItemStart.length; r++) {
      const t = m.tracks[trackOfRow[r]];
      // Items are sorted by row: row r holds items rowItemStart[r]..rowItemStart[r + 1].
      for (let i = m.rowItemStart[r]; i < m.rowItemStart[r + 1]; i++) {
        out.push(`${m.tracks[t.parent].name}/${t.name} ${m.strings[m.items.name[i]]} ${Math.round(m.items.start[i] * toNs)}..${Math.round(m.items.end[i] * toNs)}`);
      }
    }
    return out.sort();
  };
  for (const [name, g] of [['warp-specialized', genKprof({ blocks: 2, groups: 6, program: warpSpecProgram, slots: 1024 })], ['nested', genKprof({ blocks: 3, groups: 2, program: () => [[0, 0, 0], [0, 1, 5], [1, 1, 40], [2, 2, 1], [1, 0, 9]] })]] as const) {
    it(`${name}: every region comes back as a span of its block's process and group's thread, at its ns`, () => {
      const buf = { words: g.words, slots: g.slots };
      const d = decode(buf);
      let text = '';
      kprofChromeTrace(buf, d, 'x.kprof.npy', (s) => { text += s; });
      const back = buildTimeline('x.chrome.json', splitLines(text))!;
      const ours = kprofTimeline(d);
      assert.equal(back.format, 'chrome-trace');
      assert.equal(back.undrawable, 0);
      assert.deepEqual(back.tracks.map((t) => [t.name, t.parent, t.kind]), ours.tracks.map((t) => [t.name, t.parent, t.kind]));
      // Chrome times are µs: 1000 ns each.
      assert.equal(spans(ours, 1).length, d.regionCount + d.instantCount);
      assert.deepEqual(spans(back, 1000), spans(ours, 1));
    });
  }
});
