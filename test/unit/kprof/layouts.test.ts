// The FlashInfer and Mirage presets, on buffers packed the way those projects' decoders read them
// (flashinfer/profiler/__init__.py; mirage python/mirage/profiler_persistent.py), and the choice
// of a layout from the records.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decode } from '../../../core/kprof/decode';
import { detectLayout, FLASHINFER_PY, MIRAGE, TVM } from '../../../core/kprof/layouts';
import { recordFields } from '../../../core/kprof/records';
import { genKprof, regionsProgram, type Generated } from '../../gen/kprofGen';

const durations = (g: Generated, layout = detectLayout(g.words, g.slots)) => {
  const d = decode({ words: g.words, slots: g.slots }, { layout });
  return { d, list: Array.from({ length: d.regionCount }, (_, i) => `${d.regLane[i]}:${d.regEvent[i]}=${d.regEnd[i] - d.regStart[i]}`) };
};

describe('layout presets', () => {
  it('FlashInfer as its Python decoder reads it: SM id in bits 24–31, block_group in 12–23; chosen automatically when the slots say otherwise; no finalize expected', () => {
    const g = genKprof({ blocks: 3, groups: 2, finalize: false, program: () => regionsProgram([[0, 100], [5, 250]]), pack: (bg, ev, type) => ((100 + Math.floor(bg / 2)) << 24) | (bg << 12) | (ev << 2) | type });
    assert.equal(detectLayout(g.words, g.slots), FLASHINFER_PY);
    const { d, list } = durations(g);
    assert.deepEqual(d.problems, []);
    assert.deepEqual(list, [0, 1, 2, 3, 4, 5].flatMap((l) => [`${l}:0=100`, `${l}:5=250`]));
    assert.deepEqual(Object.fromEntries(recordFields({ words: g.words, slots: g.slots }, d, 5)).sm_id, '102');
    // Read as tvm, the SM id lands in block_group: every record is a bad group.
    assert.ok(decode({ words: g.words, slots: g.slots }, { layout: TVM }).problems.every((p) => p.code === 'kprof.bad-group'));
  });
  it('Mirage: event in bits 2–10 (task types past 255), block_group 11–18, event number 19+', () => {
    let seq = 0;
    const g = genKprof({ blocks: 4, finalize: false, program: () => regionsProgram([[257, 1200], [120, 300]]), pack: (bg, ev, type) => (((type === 0 ? ++seq : seq) << 19) | (bg << 11) | (ev << 2) | type) >>> 0 });
    assert.equal(detectLayout(g.words, g.slots), MIRAGE);
    const { d, list } = durations(g);
    assert.deepEqual(d.problems, []);
    assert.deepEqual(list, [0, 1, 2, 3].flatMap((l) => [`${l}:257=1200`, `${l}:120=300`]));
    assert.equal(Object.fromEntries(recordFields({ words: g.words, slots: g.slots }, d, 1)).event_no, '1');
  });
  it('a tvm buffer stays tvm; a buffer no layout fits falls back to tvm', () => {
    const g = genKprof({ blocks: 4 });
    assert.equal(detectLayout(g.words, g.slots), TVM);
    g.words[2] = 0xffffffff;
    assert.equal(detectLayout(g.words, g.slots), TVM);
    assert.equal(detectLayout(new Uint32Array(8), 4), TVM);
  });
});
