// What the editor shows, from core: the timeline model (block → group tracks, a span per region
// coloured by event, ns, slots for the details pane), a clicked record's fields, the CSV.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { decode, LANE_FLAG } from '../../../core/kprof/decode';
import { recordFields } from '../../../core/kprof/records';
import { kprofText, statsCsv } from '../../../core/kprof/report';
import { ATTRS, FLAG, KIND, NO_LINE, TRACK_FLAG } from '../../../core/timeline/model';
import { parseHostMessage, validModel } from '../../../protocol/timeline';
import { kprofTimeline } from '../../../core/kprof/timeline';
import { trackLabel } from '../../../webview/trackLabel';
import { genKprof, kprofExamples, SPEC_NAMES, warpSpecProgram } from '../../gen/kprofGen';

describe('kprof views', () => {
  const g = genKprof({ blocks: 2, groups: 6, program: warpSpecProgram, slots: 1024 });
  const buf = { words: g.words, slots: g.slots };
  const d = decode(buf, { names: ['issue-tma-k', 'issue-tma-v', 'mma-qk', 'mma-pv', 'softmax-max', 'softmax-exp2', 'softmax-sum', 'correction', 'epilogue'] });
  const m = kprofTimeline(d);
  it('timeline: a group per block, a track per group, a span per region, in ns, coloured by event', () => {
    // The page accepts it: the same validation as for a trace's model.
    assert.ok(validModel(m));
    assert.ok(parseHostMessage({ type: 'model', uri: 'file:///x.kprof.npy', fileName: 'x.kprof.npy', model: m, complete: true }));
    assert.ok(parseHostMessage({ type: 'details', line: 5, fields: recordFields(buf, d, 5), endFields: recordFields(buf, d, 9) }));
    assert.equal(m.unit, 'ns');
    assert.equal(m.colourBy, 'phase');
    assert.deepEqual(m.tracks.filter((t) => t.kind === 'group').map((t) => t.name), ['block 0', 'block 1']);
    assert.deepEqual(m.tracks.filter((t) => t.parent === 0).map((t) => t.name), ['group 0', 'group 1', 'group 2', 'group 3', 'group 4', 'group 5']);
    assert.equal(m.items.start.length, d.regionCount);
    const phase = ATTRS.indexOf('phase');
    const i = m.items.name.findIndex((n) => m.strings[n] === 'epilogue');
    assert.equal(m.strings[m.ctxAttrs[m.items.ctx[i] * ATTRS.length + phase]], 'epilogue');
    assert.equal(m.items.end[i] - m.items.start[i], 300);
    assert.equal(m.items.kind[i], KIND.slice);
    assert.notEqual(m.items.endLine[i], NO_LINE);
    assert.equal(m.items.flags[i] & FLAG.invalid, 0);
    assert.equal(m.t1, Math.max(...d.regEnd.subarray(0, d.regionCount)));
  });
  it('a clicked span\'s two records: slot, raw hex, decoded fields', () => {
    const spec = genKprof({ blocks: 4, slots: 4096 });
    const sd = decode({ words: spec.words, slots: spec.slots }, { names: SPEC_NAMES });
    const fields = Object.fromEntries(recordFields({ words: spec.words, slots: spec.slots }, sd, 5));
    assert.deepEqual(fields, { slot: '5', raw: '"0x000f426000000001"', globaltimer_lo: '1000032', t_ns: '32', type: '"end"', event: '0', name: '"load"', block: '0', group: '0' });
    assert.deepEqual(recordFields({ words: spec.words, slots: spec.slots }, sd, 99999), []);
  });
  it('lanes with problems are drawn marked', () => {
    const bad = decode((() => { const x = genKprof({ blocks: 2, slots: 64, noFinalize: [1] }); return { words: x.words, slots: x.slots }; })());
    const bm = kprofTimeline(bad);
    const marked = [...bm.items.flags].map((f) => (f & FLAG.invalid ? 1 : 0));
    assert.deepEqual(marked, [0, 0, 0, 1, 1, 1]);
  });
  it('buffer-full lanes are flagged on their track (every one, even past the problems kept) and labelled in the header', () => {
    // 4 lanes of 7 records each in 20 slots: lanes 0..3 run out (cursor past the end).
    const g = genKprof({ blocks: 2, groups: 2, slots: 20 });
    const fd = decode({ words: g.words, slots: g.slots }, { maxProblems: 1 });
    assert.equal(fd.problems.length, 1, 'only one problem kept');
    const full = [...fd.laneFlags].map((f) => f & LANE_FLAG.full);
    assert.deepEqual(full, [1, 1, 1, 1]);
    const fm = kprofTimeline(fd);
    assert.ok(validModel(fm));
    const lanes = fm.tracks.filter((t) => t.kind === 'slices');
    assert.deepEqual(lanes.map((t) => [fm.tracks[t.parent].name, t.name, t.flags]), [['block 0', 'group 0', TRACK_FLAG.bufferFull], ['block 0', 'group 1', TRACK_FLAG.bufferFull], ['block 1', 'group 0', TRACK_FLAG.bufferFull], ['block 1', 'group 1', TRACK_FLAG.bufferFull]]);
    assert.deepEqual(lanes.map((t) => trackLabel(t).text), ['group 0 ⚠ full', 'group 1 ⚠ full', 'group 0 ⚠ full', 'group 1 ⚠ full']);
    // A lane without finalize but with room left is not full; the clean example has no flag.
    const nf = decode((() => { const x = genKprof({ blocks: 2, slots: 64, noFinalize: [1] }); return { words: x.words, slots: x.slots }; })());
    assert.deepEqual([...nf.laneFlags], [0, 0]);
    const clean = kprofTimeline(d);
    assert.ok(clean.tracks.every((t) => t.flags === undefined && trackLabel(t).alert === ''));
    assert.equal(validModel({ ...fm, tracks: fm.tracks.map((t) => ({ ...t, flags: -1 })) }), false);
  });
  it('statistics as CSV: per event, block and group; names quoted', () => {
    const csv = statsCsv(decode({ words: genKprof({ blocks: 1 }).words, slots: genKprof({ blocks: 1 }).slots }, { names: ['a,b', 'say "x"', 'c'] }));
    const lines = csv.trimEnd().split('\n');
    assert.equal(lines[0], 'table,region,event,of,count,total_ns,mean_ns,min_ns,p50_ns,p95_ns,max_ns,std_ns');
    assert.equal(lines[1], 'event,"a,b",0,,1,32,32,32,32,32,32,0');
    assert.equal(lines[2], 'event,"say ""x""",1,,1,8704,8704,8704,8704,8704,8704,0');
    assert.equal(lines.length, 1 + 3 * 3);
  });
});

describe('report caps', () => {
  it('a buffer of 300 lanes prints 200 lane rows and counts the rest', () => {
    const g = genKprof({ blocks: 300 });
    const text = kprofText(decode({ words: g.words, slots: g.slots }));
    const lanes = text.slice(text.indexOf('\nLanes\n'));
    assert.equal(lanes.split('\n').filter((l) => /^ +\d+ +0 +7 /.test(l)).length, 200);
    assert.match(lanes, /… 100 more rows \(--json lists them\)/);
  });
});

describe('examples', () => {
  it('the committed kprof examples are what the generator writes (run `npm run examples` after changing it)', () => {
    for (const [file, bytes] of Object.entries(kprofExamples())) {
      assert.deepEqual(new Uint8Array(readFileSync(join(__dirname, '../../..', file))), bytes, file);
    }
  });
});
