import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { splitLines } from '../../../core/common/lines';
import { InferscopeTimelineBuilder } from '../../../core/inferscope/timeline';
import { ATTRS, FLAG, KIND, type TimelineModel } from '../../../core/timeline/model';
import { PROFILER_FIXTURES } from '../../gen/inferscopeProfiler';

const ROOT = join(__dirname, '..', '..', '..');

function items(m: TimelineModel) {
  const out = [];
  const phase = ATTRS.indexOf('phase');
  const layer = ATTRS.indexOf('layer_id');
  for (let r = 0; r + 1 < m.rowItemStart.length; r++) {
    const track = m.tracks.find((x) => x.kind === 'slices' && r >= x.rowStart && r < x.rowStart + x.rowCount)!;
    for (let i = m.rowItemStart[r]; i < m.rowItemStart[r + 1]; i++) {
      const ctx = m.items.ctx[i] * ATTRS.length;
      out.push({
        track: `${m.tracks[track.parent].name} / ${track.name}`, lane: r - track.rowStart, name: m.strings[m.items.name[i]], start: m.items.start[i], end: m.items.end[i],
        line: m.items.line[i], endLine: m.items.endLine[i], kind: m.items.kind[i], flags: m.items.flags[i], type: m.strings[m.ctxAttrs[ctx + phase]], scope: m.strings[m.ctxAttrs[ctx + layer]],
      });
    }
  }
  return out;
}

function build(text: string, streamAbove?: number) {
  const b = new InferscopeTimelineBuilder(streamAbove, 4096);
  splitLines(text).forEach((l, i) => b.addLine(l, i));
  return b.finish();
}

for (const file of Object.keys(PROFILER_FIXTURES)) {
  test(`timeline of ${file} (InferScope's Profiler layout): scopes, nested calls per thread, kernels per stream, copies; whole = streamed`, () => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const events = (JSON.parse(text) as { events: Record<string, unknown>[] }).events;
    const m = build(text);
    const all = items(m);
    assert.deepEqual([...new Set(all.map((x) => x.track))].sort(), ['CPU / thread 140319245678400', 'Copy engines / D2H', 'Copy engines / H2D', 'GPU / stream 0', 'GPU / stream 3', 'Scopes / scopes']);
    assert.equal(m.undrawable, 0);
    // Every event is drawn: a call with its return is one item, a kernel or copy one, a scope one.
    const calls = events.filter((e) => e.type === 'cpu_call').length;
    const kernels = events.filter((e) => e.type === 'gpu_kernel');
    assert.equal(all.filter((x) => x.type === 'cpu_call').length, calls);
    assert.equal(all.filter((x) => x.type === 'gpu_kernel').length, kernels.length);
    assert.deepEqual(all.filter((x) => x.track === 'Scopes / scopes').map((x) => x.name), ['tokenization', 'h2d_transfer', 'inference', 'd2h_transfer', 'decoding']);
    // A kernel ends at its stamp, in its scope; a call runs from its cpu_call's line to its cpu_return's.
    const k = all.find((x) => x.name === 'transformer.h.0.attn.c_attn')!;
    const ke = kernels.find((e) => e.name === k.name)!;
    assert.deepEqual([k.start, k.end, k.scope, k.kind], [(ke.timestamp_us as number) - (ke.duration_us as number), ke.timestamp_us, 'inference', KIND.te]);
    const greedy = all.find((x) => x.name === 'generate_greedy')!;
    assert.ok(greedy.endLine > greedy.line && greedy.end > greedy.start);
    assert.equal(greedy.lane, 0);
    // Nested calls stack under their callers.
    assert.ok(all.some((x) => x.name === 'layer_norm' && x.lane >= 4));
    // Profiler.stop's call never returned: drawn to the end, marked unmatched; nothing is marked invalid.
    const stop = all.find((x) => x.name === 'stop')!;
    assert.ok(stop.flags & FLAG.unmatchedStart);
    assert.ok(all.every((x) => !(x.flags & FLAG.invalid)));
    const st = build(text, 1000);
    assert.deepEqual(items(st), all);
  });
}
