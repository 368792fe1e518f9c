import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { splitLines } from '../../../core/common/lines';
import { buildTimeline, timelineBuilderOf } from '../../../core/detectFormat';
import { ATTRS, FLAG, KIND, NO_LINE, type TimelineModel } from '../../../core/timeline/model';

const example = (name: string): TimelineModel => buildTimeline(name, splitLines(readFileSync(join(__dirname, '../../../examples', name), 'utf8')))!;

function slices(m: TimelineModel) {
  const out = [];
  const layer = ATTRS.indexOf('layer_id');
  for (let r = 0; r + 1 < m.rowItemStart.length; r++) {
    const track = m.tracks.findIndex((t) => t.kind === 'slices' && r >= t.rowStart && r < t.rowStart + t.rowCount);
    for (let i = m.rowItemStart[r]; i < m.rowItemStart[r + 1]; i++) {
      out.push({
        thread: `${m.tracks[m.tracks[track].parent].name} / ${m.tracks[track].name}`, lane: r - m.tracks[track].rowStart,
        name: m.strings[m.items.name[i]], b: m.items.line[i] + 1, e: m.items.endLine[i] === NO_LINE ? 0 : m.items.endLine[i] + 1,
        us: m.items.end[i] - m.items.start[i], layer: m.strings[m.ctxAttrs[m.items.ctx[i] * ATTRS.length + layer]], flags: m.items.flags[i], kind: m.items.kind[i],
      });
    }
  }
  return out;
}

test('systraces get the NNAPI builder (by extension or "# tracer:" first line)', () => {
  assert.equal(timelineBuilderOf('x.systrace', '')!.constructor.name, 'NnapiTimelineBuilder');
  assert.equal(timelineBuilderOf('capture.txt', '# tracer: nop')!.constructor.name, 'NnapiTimelineBuilder');
});

test('one track per thread grouped by process; nested B/E stack into lanes; times in µs; coloured by layer', () => {
  const m = example('nnapi-mobilenet.systrace');
  assert.equal(m.unit, 'µs');
  assert.equal(m.colourBy, 'layer_id');
  assert.deepEqual(m.tracks.map((t) => t.name), ['Process 100', 'NeuralNetworks 100', 'Process 200', 'HwBinder:200_1 201', 'HwBinder:200_2 202']);
  const s = slices(m);
  const top = s.find((x) => x.name === 'mobilenet')!;
  assert.deepEqual([top.thread, top.lane, top.b, top.e, top.us, top.layer], ['Process 100 / NeuralNetworks 100', 0, 5, 22, 31000, 'LA']);
  const compile = s.find((x) => x.name === 'compile')!;
  assert.equal(compile.lane, 1, 'a child sits one lane below its parent');
  assert.equal(s.find((x) => x.name === 'cpuCompile')!.lane, 2);
  assert.ok(s.every((x) => x.kind === KIND.slice && x.flags === 0 && x.e > x.b), 'a valid trace: every B closed by its E, nothing marked');
  assert.equal(s.find((x) => x.name === 'cpuOp')!.thread, 'Process 200 / HwBinder:200_1 201');
});

test('violations of the nesting rules are marked on their slices; a lone E is drawn as a marked point', () => {
  const s = slices(example('nnapi-nesting.systrace'));
  const marked = s.filter((x) => x.flags & FLAG.invalid).map((x) => x.name).sort();
  assert.deepEqual(marked, ['a', 'compile']);
  const lone = slices(buildTimeline('x.systrace', ['# tracer: nop', '  NeuralNetworks-100  (  100) [001] ...1   100.000000: tracing_mark_write: E'])!);
  assert.equal(lone.length, 1);
  assert.equal(lone[0].flags, FLAG.instant | FLAG.unmatchedEnd);
});

test('a preview leaves the checker alone: the final model still marks the violations', () => {
  const lines = splitLines(readFileSync(join(__dirname, '../../../examples/nnapi-nesting.systrace'), 'utf8'));
  const b = timelineBuilderOf('x.systrace', lines[0])!;
  lines.forEach((l, i) => {
    b.addLine(l, i);
    if (i === 8) b.finish(true);
  });
  assert.deepEqual(slices(b.finish()).filter((x) => x.flags & FLAG.invalid).map((x) => x.name).sort(), ['a', 'compile']);
});
