import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildFromText } from '../../../node/workers/timelineText';
import { splitLines } from '../../../core/common/lines';
import { buildTimeline, timelineBuilderOf } from '../../../core/detectFormat';
import { InferscopeTimelineBuilder } from '../../../core/inferscope/timeline';
import { ATTRS, FLAG, KIND, type TimelineModel } from '../../../core/timeline/model';
import { faultyInferscope, inferscopeTrace, pretty } from '../../gen/inferscopeGen';

function items(m: TimelineModel) {
  const out = [];
  const phase = ATTRS.indexOf('phase');
  const layer = ATTRS.indexOf('layer_id');
  for (let r = 0; r + 1 < m.rowItemStart.length; r++) {
    const t = m.tracks.findIndex((x) => x.kind === 'slices' && r >= x.rowStart && r < x.rowStart + x.rowCount);
    const track = m.tracks[t];
    for (let i = m.rowItemStart[r]; i < m.rowItemStart[r + 1]; i++) {
      const ctx = m.items.ctx[i] * ATTRS.length;
      out.push({
        track: `${m.tracks[track.parent].name} / ${track.name}`, lane: r - track.rowStart, name: m.strings[m.items.name[i]],
        start: m.items.start[i], end: m.items.end[i], line: m.items.line[i], kind: m.items.kind[i], flags: m.items.flags[i],
        type: m.strings[m.ctxAttrs[ctx + phase]], scope: m.strings[m.ctxAttrs[ctx + layer]],
      });
    }
  }
  return out;
}

const TEXT = pretty(inferscopeTrace({ requests: 2, kernels: 2 }));
const LINES = splitLines(TEXT);

test('InferScope traces get their builder by name, and a .json by its top-level keys (detectFormat)', () => {
  assert.equal(timelineBuilderOf('run.inferscope.json', '{')!.constructor.name, 'InferscopeTimelineBuilder');
  assert.equal(timelineBuilderOf('trace.json', TEXT)!.constructor.name, 'InferscopeTimelineBuilder');
  assert.equal(timelineBuilderOf('run.json', '{'), undefined);
  assert.equal(timelineBuilderOf('run.txt', TEXT), undefined);
  assert.equal(timelineBuilderOf('golden.cmdq.json', TEXT), undefined);
  assert.equal(buildTimeline('x.json', ['{"name": "pkg"}']), undefined);
  // An analysis result is InferScope by its keys, but has nothing to draw: the builder says so.
  assert.throws(() => buildTimeline('x.analysis.json', ['{"name": "pkg"}']), /Not an InferScope trace/);
});

test('tracks: scopes on top, CPU per thread, GPU per device → stream, copy engines, memory, instants; times in µs', () => {
  const m = buildTimeline('run.inferscope.json', LINES)!;
  assert.equal(m.unit, 'µs');
  assert.equal(m.colourBy, 'phase');
  assert.deepEqual(m.tracks.map((t) => t.name), [
    'Scopes', 'scope hierarchy', 'CPU', 'thread 12345', 'GPU 0', 'stream 7', 'stream 8',
    'Copy engines', 'H2D GPU 0', 'D2H GPU 0', 'Memory', 'memory events', 'Markers', 'instants',
  ]);
  const it = items(m);
  assert.equal(it.length, 18 + 7, 'every event and every scope');
  assert.equal(m.undrawable, 0);
  // Scopes nest into lanes: inference, then the requests, then prep/gpu.
  const scopes = it.filter((x) => x.track === 'Scopes / scope hierarchy');
  assert.deepEqual(scopes.map((x) => `${x.lane} ${x.name}`).sort(), ['0 inference', '1 request 0', '1 request 1', '2 gpu', '2 gpu', '2 preprocess', '2 preprocess']);
  const inf = scopes.find((x) => x.name === 'inference')!;
  assert.equal(inf.start, 1234567890);
  assert.equal(inf.end, Math.max(...it.map((x) => x.end)));
  const k = it.filter((x) => x.track === 'GPU 0 / stream 7');
  assert.equal(k.length, 4);
  assert.ok(k.every((x) => x.kind === KIND.te && x.type === 'gpu_kernel' && x.scope === 'gpu'));
  assert.equal(k[0].end - k[0].start, 500);
  // Click-to-line: an item's line is its event's opening brace.
  assert.equal(LINES[k[0].line].trim(), '{');
  assert.match(LINES[k[0].line + 1], /"id": "k7_0_0"/);
  const mark = it.find((x) => x.track === 'Markers / instants')!;
  assert.equal(mark.flags & FLAG.instant, FLAG.instant);
  assert.equal(mark.start, mark.end);
  assert.equal(mark.scope, 'preprocess');
  assert.equal(it.find((x) => x.track === 'Copy engines / H2D GPU 0')!.kind, KIND.dma);
});

test('items of events and scopes with a diagnostic are marked; a preview is not', () => {
  const lines = splitLines(faultyInferscope());
  const it = items(buildTimeline('faulty.inferscope.json', lines)!);
  const marked = it.filter((x) => x.flags & FLAG.invalid).map((x) => x.name);
  for (const name of ['tokenize', 'malloc', 'copy_inputs', 'attention_forward', 'mlp_forward', 'preprocess']) assert.ok(marked.includes(name), name);
  assert.ok(!marked.includes('layernorm'));
  const b = timelineBuilderOf('faulty.inferscope.json', lines[0])!;
  lines.forEach((l, i) => b.addLine(l, i));
  assert.ok(items(b.finish(true)).every((x) => (x.flags & FLAG.invalid) === 0));
});

/** What the builder holds: its reader once streamed, and the text it keeps for a whole read. */
function held(b: InferscopeTimelineBuilder): { stream: unknown; kept: number } {
  const input = (b as unknown as { input: { stream: unknown; pieces: string[]; pending: string[] } }).input;
  return { stream: input.stream, kept: [...input.pieces, ...input.pending].reduce((n, x) => n + x.length, 0) };
}

test('past streamAbove characters the lines are read streamed: the same model, without holding the text', () => {
  const whole = buildTimeline('run.inferscope.json', LINES)!;
  for (const [above, piece] of [[0, undefined], [5000, undefined], [5000, 300], [5000, 1]]) {
    const b = new InferscopeTimelineBuilder(above, piece);
    LINES.forEach((l, i) => b.addLine(l, i));
    assert.ok(held(b).stream, 'switched to the streamed reader');
    assert.equal(held(b).kept, 0, 'no text kept');
    const m = b.finish();
    assert.deepEqual(items(m), items(whole));
    assert.deepEqual(m.tracks, whole.tracks);
    assert.equal(m.lineCount, whole.lineCount);
  }
});

test('lines kept for the whole-text read are joined in pieces: the same model (diagnostic marks included) whatever the piece size', () => {
  for (const text of [faultyInferscope(), LINES.join('\n'), `${LINES.join('\n')}\n\n`]) {
    const lines = splitLines(text);
    const whole = buildTimeline('run.inferscope.json', lines)!;
    for (const piece of [0, 1, 77, 5000]) {
      const b = new InferscopeTimelineBuilder(undefined, piece);
      lines.forEach((l, i) => b.addLine(l, i));
      const pieces = (b as unknown as { input: { pieces: string[] } }).input.pieces;
      assert.ok(pieces.length > 0 || piece === 5000);
      assert.ok(pieces.length <= Math.ceil(text.length / Math.max(1, piece)), `${pieces.length} pieces`);
      const m = b.finish();
      assert.deepEqual(items(m), items(whole));
      assert.deepEqual(m.tracks, whole.tracks);
      assert.equal(m.lineCount, whole.lineCount);
    }
  }
});

/** The text cut into pieces of `size` characters, as a file reader hands them on. */
const cut = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

test('text fed in pieces of any size (a file read as the worker reads it) gives the model its lines give, read whole or streamed', () => {
  for (const text of [TEXT, faultyInferscope(), TEXT.replace(/\n/g, '\r\n')]) {
    const whole = buildTimeline('run.inferscope.json', splitLines(text))!;
    for (const size of [1, 7, 1000, text.length]) {
      const b = new InferscopeTimelineBuilder();
      for (const t of cut(text, size)) b.addText(t);
      assert.equal(held(b).stream, undefined);
      const m = b.finish();
      assert.deepEqual(items(m), items(whole), `pieces of ${size}`);
      assert.deepEqual(m.tracks, whole.tracks);
      assert.equal(m.lineCount, whole.lineCount);
    }
  }
  const streamedWhole = buildTimeline('run.inferscope.json', LINES)!;
  for (const size of [1, 333, TEXT.length]) {
    // Past streamAbove while fed (the size was not known): what was kept goes to the reader, then the rest.
    const b = new InferscopeTimelineBuilder(5000);
    for (const t of cut(TEXT, size)) b.addText(t);
    assert.ok(held(b).stream);
    const m = b.finish();
    assert.deepEqual(items(m), items(streamedWhole));
    assert.equal(m.lineCount, streamedWhole.lineCount);
  }
});

test('a size known past streamAbove reads streamed from the first piece: no text is ever kept', () => {
  const whole = buildTimeline('run.inferscope.json', LINES)!;
  for (const text of [TEXT, `${JSON.stringify(inferscopeTrace({ requests: 2, kernels: 2 }))}\n`]) {
    const b = new InferscopeTimelineBuilder(5000);
    b.expectChars(text.length);
    for (const t of cut(text, 100)) {
      b.addText(t);
      assert.ok(held(b).stream);
      assert.equal(held(b).kept, 0);
    }
    const m = b.finish();
    const compact = !text.includes('\n  ');
    // A compact trace is one line (and an end of line): every item on line 0.
    assert.equal(m.lineCount, compact ? 2 : whole.lineCount);
    assert.deepEqual(items(m).map((x) => ({ ...x, line: 0 })), items(whole).map((x) => ({ ...x, line: 0 })));
    if (compact) assert.ok(items(m).every((x) => x.line === 0));
    else assert.deepEqual(items(m), items(whole));
  }
  // Within the limit the size changes nothing.
  const b = new InferscopeTimelineBuilder(5000);
  b.expectChars(5000);
  b.addText('{');
  assert.equal(held(b).stream, undefined);
});

test('the worker\'s file build gives the builder the size on disk (or in the gzip trailer) first: past the limit, no text is ever kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'inferscope-text-'));
  try {
    const whole = buildTimeline('run.inferscope.json', LINES)!;
    const plain = join(dir, 'run.inferscope.json');
    writeFileSync(plain, TEXT);
    writeFileSync(`${plain}.gz`, gzipSync(TEXT));
    for (const file of [plain, `${plain}.gz`]) {
      // Pieces that came before the streamed reader was there (and so would have been kept).
      let early = 0;
      const m = await buildFromText(file, file, undefined, undefined, () => {
        const b = new InferscopeTimelineBuilder(5000);
        const add = b.addText.bind(b);
        b.addText = (t) => {
          if (!held(b).stream) early++;
          add(t);
        };
        return b;
      });
      assert.equal(early, 0, file);
      assert.deepEqual(items(m!), items(whole));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
