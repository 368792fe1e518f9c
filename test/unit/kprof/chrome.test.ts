// The Chrome Trace export of a buffer (core/kprof/chrome.ts): a span per region in its block's
// process and its group's thread, the two records as args exactly as the details pane shows them
// (recordJson agrees with recordFields for every layout, the timer wrap and names with quotes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kprofChromeTrace } from '../../../core/kprof/chrome';
import { decode } from '../../../core/kprof/decode';
import { detectLayout } from '../../../core/kprof/layouts';
import { recordFields, recordJson } from '../../../core/kprof/records';
import { genKprof, regionsProgram } from '../../gen/kprofGen';

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
