import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { splitLines } from '../../../core/common/lines';
import { buildTimeline, timelineBuilderOf } from '../../../core/detectFormat';
import { ChromeTimelineBuilder } from '../../../core/chrome/timeline';
import { ATTRS, FLAG, KIND, NO_LINE, type TimelineModel } from '../../../core/timeline/model';

const FIXTURE = join(__dirname, '../../fixtures/timeline/llama-layer.trace.jsonl');

function model(text = readFileSync(FIXTURE, 'utf8')): TimelineModel {
  return buildTimeline('x.trace.jsonl', splitLines(text))!;
}

/** Every item as a plain object, with its track path, for readable assertions. */
function items(m: TimelineModel) {
  const rowTrack: number[] = [];
  m.tracks.forEach((t, k) => { for (let r = 0; r < t.rowCount; r++) rowTrack[t.rowStart + r] = k; });
  const path = (k: number): string => (k < 0 ? '' : `${path(m.tracks[k].parent)}/${m.tracks[k].name}`);
  const out = [];
  for (let r = 0; r + 1 < m.rowItemStart.length; r++) {
    for (let i = m.rowItemStart[r]; i < m.rowItemStart[r + 1]; i++) {
      out.push({
        track: path(rowTrack[r]), row: r, start: m.items.start[i], end: m.items.end[i], line: m.items.line[i], endLine: m.items.endLine[i],
        name: m.strings[m.items.name[i]], id: m.items.id[i], kind: m.items.kind[i], flags: m.items.flags[i], bytes: m.items.bytes[i],
        attrs: Object.fromEntries(ATTRS.map((a, k) => [a, m.strings[m.ctxAttrs[m.items.ctx[i] * ATTRS.length + k]]])),
      });
    }
  }
  return out;
}

test('tracks are grouped npu → core → resource, in resource order', () => {
  const m = model();
  const names = m.tracks.map((t) => `${t.parent < 0 ? '' : m.tracks[t.parent].name + ' > '}${t.name}`);
  assert.deepEqual(names, [
    'NPU 0', 'NPU 0 > Core 0', 'Core 0 > Commands', 'Core 0 > Jobs', 'Core 0 > TE', 'Core 0 > TE utilization', 'Core 0 > VE', 'Core 0 > VE utilization',
    'Core 0 > DMA ch 0', 'Core 0 > DMA ch 1', 'Core 0 > DMA bandwidth', 'Core 0 > DRAM ch 1', 'Core 0 > DRAM bandwidth', 'Core 0 > NoC link 0', 'Core 0 > Markers',
    'NPU 0 > Core 1', 'Core 1 > Commands', 'Core 1 > VE', 'Core 1 > VE utilization', 'Core 1 > DMA ch 0', 'Core 1 > DMA bandwidth', 'Core 1 > Markers',
  ]);
});

test('START/END pairs become spans with both source lines', () => {
  const all = items(model());
  const cmd42 = all.find((x) => x.kind === KIND.command && x.id === 42)!;
  assert.deepEqual([cmd42.start, cmd42.end, cmd42.line, cmd42.endLine, cmd42.name, cmd42.track], [150, 900, 3, 29, 'MATMUL', '/NPU 0/Core 0/Commands']);
  const te = all.filter((x) => x.kind === KIND.te).map((x) => [x.id, x.start, x.end, x.line, x.endLine]);
  assert.deepEqual(te, [[1001, 230, 280, 9, 17], [1002, 295, 345, 19, 20]]);
  const dma = all.filter((x) => x.kind === KIND.dma && x.flags === 0).map((x) => [x.track, x.id, x.bytes, x.name]);
  assert.deepEqual(dma, [['/NPU 0/Core 0/DMA ch 0', 500, 65536, 'DRAM_TO_SRAM'], ['/NPU 0/Core 0/DMA ch 1', 501, 32768, 'DRAM_TO_SRAM']]);
  // The same tx_id on the DMA, DRAM and NoC legs pairs within each kind, not across them.
  assert.deepEqual(all.filter((x) => x.id === 500).map((x) => [x.kind, x.start, x.end]).sort(), [[KIND.dma, 210, 260], [KIND.dram, 220, 260], [KIND.noc, 218, 258]].sort());
});

test('events inherit phase, layer, tenant and model from their command', () => {
  const all = items(model());
  const dram = all.find((x) => x.kind === KIND.dram)!;
  assert.deepEqual(dram.attrs, { phase: 'QKV_PROJ', layer_id: '3', cmd_id: '42', tenant_id: '1', model_name: 'llama2_7b' });
  const ve = all.find((x) => x.kind === KIND.ve && x.id === 1100)!;
  assert.deepEqual(ve.attrs, { phase: 'LN1', layer_id: '3', cmd_id: '43', tenant_id: '1', model_name: 'llama2_7b' });
});

test('overlapping spans of one track go to separate rows (lanes); jobs nest below commands', () => {
  const m = model();
  const all = items(m);
  const cmds = all.filter((x) => x.track === '/NPU 0/Core 0/Commands');
  assert.equal(new Set(cmds.map((c) => c.row)).size, 2, 'cmd 42 (150..900) and cmd 43 (300..360) overlap');
  const jobs = m.tracks.findIndex((t) => t.name === 'Jobs');
  assert.equal(jobs, m.tracks.findIndex((t) => t.name === 'Commands') + 1);
});

test('broken events are drawn and marked, not dropped', () => {
  const all = items(model());
  const open = all.find((x) => x.kind === KIND.ve && x.id === 1200)!;
  assert.equal(open.flags & FLAG.unmatchedStart, FLAG.unmatchedStart);
  assert.equal(open.end, 990, 'an unmatched START runs to the end of the trace');
  assert.equal(open.endLine, NO_LINE);
  const lone = all.find((x) => x.kind === KIND.dma && x.id === 777)!;
  assert.equal(lone.flags, FLAG.instant | FLAG.unmatchedEnd);
  assert.equal(lone.line, 36);
  assert.equal(lone.track, '/NPU 0/Core 1/DMA ch 0');
  const failed = all.find((x) => x.kind === KIND.command && x.id === 44)!;
  assert.equal(failed.flags & FLAG.failed, FLAG.failed);
  const backwards = items(model('{"event_type":"TE_START","t_cycle":50,"job_id":1}\n{"event_type":"TE_END","t_cycle":40,"job_id":1}')).find((x) => x.kind === KIND.te)!;
  assert.deepEqual([backwards.start, backwards.end, backwards.flags], [40, 50, FLAG.endBeforeStart]);
});

test('markers: IRQ, token, SRAM conflict, ERROR and WARN', () => {
  const all = items(model());
  const marks = all.filter((x) => x.flags & FLAG.instant && x.track.endsWith('Markers')).map((x) => [x.kind, x.start, x.name, x.flags & FLAG.failed]);
  assert.deepEqual(marks, [
    [KIND.sramConflict, 236, 'SRAM_CONFLICT', 0], [KIND.warn, 700, 'TE LOW_UTIL', 0], [KIND.irq, 900, 'IRQ_EMIT', 0], [KIND.token, 900, 'TOKEN_COMPLETE', 0],
    [KIND.error, 950, 'DMA ADDR_ALIGN', FLAG.failed],
  ]);
});

test('counters: TE utilization per bucket and DMA bandwidth in bytes per cycle', () => {
  const m = model();
  const te = m.counters[m.tracks.find((t) => t.name === 'TE utilization')!.counter];
  assert.equal(te.unit, 'fraction');
  const at = (c: typeof te, t: number) => c.values[Math.floor((t - c.t0) / c.bucket)];
  assert.equal(m.t0, 100);
  assert.equal(m.t1, 990);
  assert.equal(at(te, 250), 1, 'TE busy at 250 (job 1001)');
  assert.equal(at(te, 290), 0, 'TE idle between jobs');
  assert.equal(at(te, 500), 0);
  // Integrates to the busy cycles: 50 + 50.
  assert.ok(Math.abs(te.values.reduce((a, b) => a + b, 0) * te.bucket - 100) < 1e-6);
  const dma = m.counters[m.tracks.find((t) => t.name === 'DMA bandwidth' && m.tracks[t.parent].name === 'Core 0')!.counter];
  assert.equal(dma.unit, 'bytes/cycle');
  assert.ok(Math.abs(dma.values.reduce((a, b) => a + b, 0) * dma.bucket - (65536 + 32768)) < 0.1, 'bytes are conserved');
  assert.ok(Math.abs(at(dma, 240) - (65536 / 50 + 32768 / 40)) < 1e-3);
});

test('time in ns from TRACE_META clock or t_ns', () => {
  assert.equal(model().nsPerCycle, 1);
  assert.equal(model('{"event_type":"CMD_START","t_cycle":100,"t_ns":50,"cmd_id":1}\n{"event_type":"CMD_END","t_cycle":300,"t_ns":150,"cmd_id":1}').nsPerCycle, 0.5);
  assert.equal(model('{"event_type":"CMD_START","t_cycle":100,"cmd_id":1}').nsPerCycle, undefined);
});

test('lines that cannot be drawn are counted, not fatal', () => {
  const m = model('not json\n{"event_type":"NOPE","t_cycle":1}\n[]\n\n{"event_type":"TE_START","t_cycle":"x","job_id":1}\n{"event_type":"TE_START","t_cycle":5,"job_id":"bad"}');
  assert.equal(m.undrawable, 4);
  assert.equal(m.lineCount, 6);
  const all = items(m);
  assert.equal(all.length, 1);
  assert.equal(all[0].flags & FLAG.invalid, FLAG.invalid);
  assert.equal(all[0].flags & FLAG.unmatchedStart, FLAG.unmatchedStart);
  const empty = model('');
  assert.equal(empty.items.start.length, 0);
  assert.deepEqual([empty.t0, empty.t1], [0, 0]);
});

test('a preview of the first lines leaves the builder as it was: the final model is unchanged', () => {
  const lines = splitLines(readFileSync(FIXTURE, 'utf8'));
  const b = timelineBuilderOf('x.trace.jsonl', lines[0])!;
  let preview: TimelineModel | undefined;
  lines.forEach((l, i) => {
    b.addLine(l, i);
    if (i === 12) preview = b.finish();
  });
  const full = b.finish();
  assert.deepEqual(full, model());
  const open = items(preview!).filter((x) => x.flags & FLAG.unmatchedStart).map((x) => [x.kind, x.id]);
  assert.ok(open.some(([k, id]) => k === KIND.command && id === 42), 'in the preview, command 42 is still open');
  assert.equal(items(full).find((x) => x.kind === KIND.command && x.id === 42)!.flags, 0, 'closed in the complete model');
});

test('the foundation fixtures: every event type drawn; unmatched and backwards pairs marked', () => {
  const load = (name: string) => model(readFileSync(join(__dirname, '../../fixtures/trace', name), 'utf8'));
  const all = load('valid-all-events.trace.jsonl');
  assert.equal(all.undrawable, 0);
  assert.equal(all.nsPerCycle! , 66.67 / 100, 't_ns of the trace wins over the TRACE_META clock');
  const kinds = new Set(items(all).map((x) => x.kind));
  for (const k of Object.values(KIND).filter((k) => k !== KIND.slice && k !== KIND.marker)) assert.ok(kinds.has(k), `kind ${k} drawn`);
  assert.ok(items(all).every((x) => (x.flags & (FLAG.unmatchedStart | FLAG.unmatchedEnd | FLAG.endBeforeStart)) === 0), 'a valid trace has no broken pairs');
  assert.ok(items(load('unmatched-start.trace.jsonl')).some((x) => x.flags & FLAG.unmatchedStart));
  assert.ok(items(load('unmatched-end.trace.jsonl')).some((x) => x.flags & FLAG.unmatchedEnd));
  assert.ok(items(load('end-before-start.trace.jsonl')).some((x) => x.flags & FLAG.endBeforeStart));
  // Broken lines never stop the build: every faulty fixture gives a model.
  for (const f of ['invalid-json', 'not-object', 'wrong-type', 'missing-field', 'unknown-event-type', 'duplicate-id', 'time-backwards', 'too-many-problems']) {
    const m = load(`${f}.trace.jsonl`);
    assert.equal(m.rowItemStart[m.rowItemStart.length - 1], m.items.start.length, f);
  }
});

test('the builder is picked by file name, or by a first line that is a trace event', () => {
  assert.ok(timelineBuilderOf('run.trace.jsonl', ''));
  assert.ok(timelineBuilderOf('run.TRACE.JSONL.GZ', ''));
  assert.ok(timelineBuilderOf('Untitled-1', '{"event_type": "CMD_START", "t_cycle": 1, "cmd_id": 1}'));
  assert.equal(timelineBuilderOf('golden.cmdq.json', '{'), undefined);
  assert.equal(timelineBuilderOf('notes.txt', 'hello'), undefined);
});

test('a one-line Chrome trace whose first events carry "event_type" in their args is drawn as Chrome, as check reads it', () => {
  // What `jq -c` (or any re-save) makes of our own export of an NPU trace.
  const text = JSON.stringify({ displayTimeUnit: 'ns', traceEvents: [
    { ph: 'X', name: 'TE', cat: 'te', pid: 1, tid: 2, ts: 1, dur: 5, args: { event_type: 'TE_START', job_id: 1 } },
    { ph: 'X', name: 'VE', cat: 've', pid: 1, tid: 3, ts: 7, dur: 2, args: { event_type: 'VE_START', job_id: 2 } },
  ] });
  assert.ok(timelineBuilderOf('layer.json', text) instanceof ChromeTimelineBuilder);
  const m = buildTimeline('layer.json', [text])!;
  assert.equal(m.format, 'chrome-trace');
  assert.equal(m.items.start.length, 2);
});
