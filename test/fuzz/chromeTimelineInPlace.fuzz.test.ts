// The timeline worker reads a Chrome trace in pieces and draws most events from their fields read
// where they stand (core/chrome/timelineInPlace.ts: no JSON.parse); lines with JSON.parse of every
// event were its way before, and stay the way of an unsaved document. The model must be the same
// either way, field by field (items, strings, contexts, links, lines and characters): random
// events (valid, and with every field the in-place reading declines or decodes — odd phases,
// numbers as strings, huge numbers, negative durations, escapes, unicode, duplicate keys, nested
// values, bytes in args written every way, broken JSON, empty objects, non-objects), pretty-printed,
// compact or on one line, LF, CRLF or CR, cut into random pieces; a .gz cut in the middle; and the
// real writers' traces and the generators'.
import assert from 'node:assert/strict';
import { gzipSync, gunzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { eol, feedCut, lastBreak, mutate, writeDoc } from './chromeDocText';
import { ChromeTimelineBuilder } from '../../core/chrome/timeline';
import { OpsRecorder, type OpsBatch } from '../../core/chrome/timelineOps';
import type { TimelineModel } from '../../core/timeline/model';
import { buildFromText } from '../../node/workers/timelineText';
import { pytorchFlowsTrace, pytorchTrace } from '../gen/chromeGen';
import { kinetoCompiledTrace, kinetoEagerTrace, kinetoLegacyTrace } from '../gen/kinetoGen';
import { kinetoTrainingTrace } from '../gen/kinetoTraining';

/**
 * Two threads' way (core/chrome/timelineOps.ts): one reads the pieces and records ops in batches of
 * `batch` (copied as a thread is posted them), the other replays them into the builder.
 */
function byOps(text: string, cuts: number[], cutOff = false, batch = 16384): TimelineModel {
  const batches: OpsBatch[] = [];
  const reader = new ChromeTimelineBuilder({ record: new OpsRecorder((b) => batches.push(structuredClone(b)), batch) });
  feedCut(text, cuts, (t) => reader.addText(t));
  reader.endText(cutOff);
  const b = new ChromeTimelineBuilder();
  for (const x of batches) b.replayOps(x);
  return b.finish();
}

/**
 * Two threads' way on a big plain file (node/workers/timelineText.ts): this thread reads up to
 * `start`, another reads from there as a part (core/chrome/parts.ts), recording ops this one
 * replays if it stood between two events at `start`; else it reads on itself.
 */
function byParts(text: string, start: number, batch: number): { model: TimelineModel; merged: boolean } {
  const form = text.trimStart().startsWith('[') ? 'array' : 'object';
  const batches: OpsBatch[] = [];
  const part = new ChromeTimelineBuilder({ record: new OpsRecorder((b) => batches.push(structuredClone(b)), batch), part: form });
  part.addText(text.slice(start));
  part.endText(false);
  const b = new ChromeTimelineBuilder();
  b.addText(text.slice(0, start));
  const at = b.atPartBoundary();
  if (at?.form === form) {
    for (const x of batches) b.replayOps(x, at.at);
    return { model: b.finish(), merged: true };
  }
  b.addText(text.slice(start));
  return { model: b.finish(), merged: false };
}

/** Where a part may start: the `{` next after `at` (an event's start or not). */
const braceAfter = (text: string, at: number) => text.indexOf('{', (at % text.length) + 1);

/** The old way: every line, each event through JSON.parse. */
function byLines(text: string, cutOff = false): TimelineModel {
  const b = new ChromeTimelineBuilder();
  const lines = text.split(/\r\n|\r|\n/);
  // A cut .gz: the line the cut falls in is not read.
  if (cutOff) lines.pop();
  lines.forEach((l, i) => b.addLine(l, i));
  return b.finish();
}

/** The worker's way: pieces cut at `cuts`, read in place (or, `inPlace: false`, each event parsed). */
function byPieces(text: string, cuts: number[], cutOff = false, inPlace = true, preview?: (m: TimelineModel) => void): TimelineModel {
  const b = new ChromeTimelineBuilder({ inPlace });
  feedCut(text, cuts, (t) => {
    b.addText(t);
    preview?.(b.finish(true));
  });
  b.endText(cutOff);
  return b.finish();
}

const str = fc.oneof(fc.constantFrom('ac2g', 'fwdbwd', 'cpu_op', 'kernel', '', 'a"b', 'tab\there', 'x\\y', 'é', '\u2028', 'aten::linear_and_more', 'ProfilerStep#1', 'e'), fc.string({ maxLength: 6 }));
const num = fc.oneof(fc.integer({ min: -5, max: 5000 }), fc.double({ min: -10, max: 1e7, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, 1e15, 12345678901234568, 1.5e300));
/** A value as text: JSON, and some text JSON does not have. */
const rawValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: num.map((n) => JSON.stringify(n)) },
  { weight: 4, arbitrary: str.map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', '1e400', '-0', '0.5e2', '"\\u0041"', '"\\u0065"', '{}', '[]', '[1, [2, {"a": null}]]', '{"name": "x", "value": 3}', '{"a": {"b": [true]}}') },
  { weight: 1, arbitrary: fc.constantFrom('01', '1.', '"a\nb"', 'tru', '[1,]', '{"a" 1}', '"\\x"', '-', '[', '"\t"') },
);
/** `args`, mostly objects, with bytes written every way (and a key that spells it with an escape). */
const args = fc.oneof(
  fc.constantFrom('{"bytes": 4096}', '{"Bytes": 7, "bytes": 1.5e3}', '{"bytes": -2}', '{"bytes": "64"}', '{"bytes": 1e400}', '{"b\\u0079tes": 9}', '{"bytes": 1, "bytes": 2}',
    '{"x": "\\\\", "bytes": 3}', '{"x": "say \\"bytes\\""}', '[{"bytes": 5}]', '{"nested": {"bytes": 6}}', '{}', '5', '{"bytes": [1]', '{"Input Dims": [[8, 2048], []], "External id": 3}'),
  fc.dictionary(fc.constantFrom('bytes', 'External id', 'name', 'value', 'labels'), rawValue, { maxKeys: 3 }).map((d) => `{${Object.entries(d).map(([k, v]) => `"${k}": ${v}`).join(', ')}}`),
);
const phase = fc.constantFrom('"X"', '"X"', '"X"', '"s"', '"f"', '"t"', '"i"', '"I"', '"R"', '"n"', '"B"', '"E"', '"B"', '"E"', '"b"', '"e"', '"C"', '"M"', '"Q"', '"O"', '"XX"', '1', '"\\u0058"');
const key = fc.constantFrom('ph', 'ts', 'dur', 'tdur', 'cat', 'id', 'id2', 'bind_id', 'flow_in', 'flow_out', 'name', 'pid', 'tid', 'cname', 'args', 'bp', 's', 'p\\u0068', 'other');
const field = fc.tuple(key, rawValue).map(([k, v]) => [k, v] as [string, string]);
const small = fc.oneof(fc.integer({ min: 0, max: 3 }).map(String), fc.constantFrom('"1"', '"2"', '"Spans"', '"w\\u00e9"', '1.0', 'null', '{}', '"CTA10"'));

/** An event: mostly plausible (ph, ts, pid, tid, a name; for X a dur, for a flow an id), with random fields around. */
const event: fc.Arbitrary<[string, string][]> = fc.record({
  ph: fc.option(phase, { freq: 12 }),
  ts: fc.option(fc.oneof(num.map((n) => JSON.stringify(n)), fc.constantFrom('"12"', 'null', '1e400')), { freq: 10 }),
  dur: fc.option(fc.oneof(num.map((n) => JSON.stringify(Math.abs(n))), fc.constantFrom('-3', '"4"', 'null', '1e400')), { freq: 3 }),
  pid: fc.option(small, { freq: 6 }),
  tid: fc.option(small, { freq: 6 }),
  name: fc.option(fc.oneof(str.map((s) => JSON.stringify(s)), fc.constantFrom('5', 'null', '["x"]', '"\\u00e9t\\u00e9"', '"\\ud83d\\ude00 op"')), { freq: 8 }),
  id: fc.option(fc.oneof(fc.integer({ min: 0, max: 6 }).map(String), fc.constantFrom('"7"', '"a\\"b"', '1.5', '007', '12345678901234567890', '-0', '{}')), { freq: 3 }),
  cat: fc.option(fc.constantFrom('"ac2g"', '"fwdbwd"', '""', '5', '"c\\u0061t"', '"gpu_memcpy"', '{}'), { freq: 3 }),
  bind: fc.option(fc.constantFrom('"bind_id": 3, "flow_out": true', '"bind_id": 3, "flow_in": true', '"bind_id": "3", "flow_in": true, "flow_out": true', '"bind_id": {}', '"bind_id": null, "flow_in": true', '"bp": "e"', '"bp": "\\u0065"', '"bp": 1'), { freq: 4 }),
  args: fc.option(args, { freq: 3 }),
  extra: fc.array(field, { maxLength: 3 }),
}).map(({ ph, ts, dur, pid, tid, name, id, cat, bind, args: a, extra }) => {
  const fs: [string, string][] = [];
  if (ph !== null) fs.push(['ph', ph]);
  if (ts !== null) fs.push(['ts', ts]);
  if (dur !== null) fs.push(['dur', dur]);
  if (pid !== null) fs.push(['pid', pid]);
  if (tid !== null) fs.push(['tid', tid]);
  if (name !== null) fs.push(['name', name]);
  if (id !== null) fs.push(['id', id]);
  if (cat !== null) fs.push(['cat', cat]);
  if (a !== null) fs.push(['args', a]);
  if (bind !== null) {
    const [k, ...v] = bind.split(': ');
    // Several fields in one: the first key holds the rest as written.
    fs.push([JSON.parse(k) as string, v.join(': ')]);
  }
  return [...fs, ...extra];
});
const element = fc.oneof(
  { weight: 20, arbitrary: event.map((fs) => ({ fs })) },
  { weight: 1, arbitrary: fc.constantFrom('{}', '[]', '7', '"x"', 'null', '{"ph": "X", "ts": 1', '}', '{"ph": "X",, "ts": 1}', '{"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "python3"}}',
    '{"name": "thread_name", "ph": "M", "pid": 1, "tid": 2, "args": {"name": "stream 7"}}', '{"name": "thread_sort_index", "ph": "M", "pid": 1, "tid": 3, "args": {"sort_index": -1}}').map((raw) => ({ raw })) },
);
/** `wrapped`: events on one line, each broken after its first field, so events both share lines and span them. */
const layout = fc.constantFrom('pretty', 'compact', 'oneLine', 'wrapped');

const cutsOf = (text: string, piece: number) => Array.from({ length: Math.ceil(text.length / piece) }, (_, k) => k * piece);

describe('Chrome timeline: events read in place give the model JSON.parse of each gives', () => {
  it('random traces, any layout, line end and pieces: in place = parsed = lines', () => {
    fc.assert(fc.property(
      fc.array(element, { maxLength: 14 }), layout, eol, fc.constantFrom('object', 'array', 'open'), fc.array(fc.nat(), { maxLength: 8 }),
      (els, how, nl, form, cuts) => {
        const text = writeDoc(els, how, nl, form);
        const at = cuts.map((c) => c % (text.length + 1));
        // A preview after each piece (the worker shows one) changes nothing that follows.
        const inPlace = byPieces(text, at, false, true, () => undefined);
        assert.deepStrictEqual(inPlace, byPieces(text, at, false, false));
        assert.deepStrictEqual(inPlace, byLines(text));
        assert.deepStrictEqual(byOps(text, at, false, 1 + (cuts[0] ?? 0) % 5), inPlace);
        const k = braceAfter(text, cuts[1] ?? 0);
        if (k > 0) assert.deepStrictEqual(byParts(text, k, 1 + (cuts[0] ?? 0) % 5).model, inPlace);
      },
    ), { numRuns: 500 });
  });

  it('a part from an event start of a well-formed trace is taken, and draws what one pass draws', () => {
    fc.assert(fc.property(
      fc.array(element, { minLength: 2, maxLength: 14 }), fc.constantFrom('pretty', 'compact'), eol, fc.constantFrom('object', 'array', 'open'), fc.nat(),
      (els, how, nl, form, at) => {
        const text = writeDoc(els, how, nl, form);
        const starts = [...text.matchAll(/(?:\r\n|\r|\n) {2}\{/g)].map((m) => m.index + m[0].length - 1);
        fc.pre(starts.length > 1);
        const r = byParts(text, starts[1 + (at % (starts.length - 1))], 3);
        assert.deepStrictEqual(r.model, byLines(text));
        let valid = true;
        try {
          JSON.parse(form === 'open' ? `${text.trimEnd().replace(/,$/, '')}]` : text);
        } catch {
          valid = false;
        }
        if (valid) assert.ok(r.merged);
      },
    ), { numRuns: 300 });
  });

  it('a mutated trace (characters dropped or doubled): the same model', () => {
    fc.assert(fc.property(
      fc.array(element, { minLength: 1, maxLength: 8 }), layout, eol, fc.nat(), fc.constantFrom('drop', 'double', 'brace', 'quote'), fc.array(fc.nat(), { maxLength: 6 }),
      (els, how, nl, at, op, cuts) => {
        const text = mutate(writeDoc(els, how, nl, 'object'), at, op);
        const lines = byLines(text);
        assert.deepStrictEqual(byPieces(text, cuts.map((c) => c % (text.length + 1)), false, true, () => undefined), lines);
        assert.deepStrictEqual(byOps(text, cuts.map((c) => c % (text.length + 1)), false, 2), lines);
        const k = braceAfter(text, at + 7);
        if (k > 0) assert.deepStrictEqual(byParts(text, k, 2).model, lines);
      },
    ), { numRuns: 300 });
  });

  it('a cut .gz: the line the cut falls in is left out either way', () => {
    fc.assert(fc.property(
      fc.array(element, { minLength: 1, maxLength: 8 }), fc.constantFrom('pretty', 'compact'), eol, fc.nat(), fc.array(fc.nat(), { maxLength: 4 }),
      (els, how, nl, at, cuts) => {
        const whole = writeDoc(els, how, nl, 'object');
        const text = whole.slice(0, at % whole.length);
        const last = lastBreak(text);
        const lines = byLines(text, true);
        assert.deepStrictEqual(byPieces(text, last < 0 ? [] : cuts.map((c) => c % (last + 1)), true), lines);
        assert.deepStrictEqual(byOps(text, last < 0 ? [] : cuts.map((c) => c % (last + 1)), true, 3), lines);
      },
    ), { numRuns: 200 });
  });

  it('the real writers\' traces and the generators\' (Kineto eager, compiled, legacy, a training run, chromeGen, Proton, JAX)', () => {
    const dir = join(__dirname, '..', 'fixtures');
    const texts = [
      ...['real/pytorch/eager-step.pt.trace.json', 'real/pytorch/compiled-step.pt.trace.json', 'real/pytorch/kineto-2021.pt.trace.json', 'real/proton/matmul.chrome_trace',
        'chrome/every-ph.trace.json', 'chrome/faulty.trace.json', 'chrome/one-line.pt.trace.json', 'chrome/pytorch.pt.trace.json'].map((f) => readFileSync(join(dir, f), 'utf8')),
      gunzipSync(readFileSync(join(dir, 'real/jax/perfetto_trace.json.gz'))).toString('utf8'),
      kinetoEagerTrace().text, kinetoCompiledTrace().text, kinetoLegacyTrace().text, kinetoTrainingTrace({ steps: 2, layers: 2 }).text, pytorchTrace(3), pytorchFlowsTrace(),
    ];
    for (const text of texts) {
      const lines = byLines(text);
      // Some events are drawn at all (a test of nothing would pass too).
      assert.ok(lines.items.start.length > 0);
      for (const piece of [7, 4096, 1 << 20]) {
        const previews: TimelineModel[] = [];
        const got = byPieces(text, cutsOf(text, piece), false, true, piece === 4096 ? (m) => previews.push(m) : undefined);
        assert.deepStrictEqual(got, lines);
        assert.deepStrictEqual(got, byPieces(text, cutsOf(text, piece), false, false));
        assert.deepStrictEqual(byOps(text, cutsOf(text, piece), false, piece === 7 ? 5 : 16384), lines);
        const starts = [...text.matchAll(/\n {2}\{/g)].map((m) => m.index + 3);
        if (piece === 4096 && starts.length > 2) {
          const r = byParts(text, starts[starts.length >> 1], 64);
          assert.deepStrictEqual(r.model, lines);
          assert.ok(r.merged);
        }
        assert.deepStrictEqual(byPieces(text.replace(/\n/g, '\r\n'), cutsOf(text, piece)), byLines(text.replace(/\n/g, '\r\n')));
      }
    }
  });

  it('on two threads (a part read by another, dist/timelineReadWorker.js) the worker draws the model one thread draws', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrome-tl-parts-'));
    const env = { min: process.env.NPU_TIMELINE_READ_MIN, on: process.env.NPU_TIMELINE_READ_THREAD };
    try {
      const ev = (i: number) => `{"ph": "X", "name": "k${i}", "pid": 1, "tid": 1, "ts": ${i * 10}, "dur": 5, "args": {"shapes": [{"a": 1},{"b": 2},{"c": ${i}}]}}`;
      const texts: [string, string][] = [
        ['train.pt.trace.json', kinetoTrainingTrace({ steps: 2, layers: 2 }).text],
        ['crlf.pt.trace.json', kinetoTrainingTrace({ steps: 1, layers: 2 }).text.replace(/\n/g, '\r\n')],
        // One line whose args hold "},{": the part's start falls inside an event, and this thread reads on.
        ['oneline.trace.json', `{"traceEvents": [${Array.from({ length: 3000 }, (_, i) => ev(i)).join(',')}]}`],
        // Past the preview's 4 MB within this thread's part: a preview is drawn from it.
        ['big.pt.trace.json', kinetoTrainingTrace({ events: 40_000 }).text],
      ];
      for (const [name, text] of texts) {
        const file = join(dir, name);
        writeFileSync(file, text);
        process.env.NPU_TIMELINE_READ_MIN = '0';
        delete process.env.NPU_TIMELINE_READ_THREAD;
        const previews: TimelineModel[] = [];
        const two = await buildFromText(file, file, (p) => previews.push(p));
        process.env.NPU_TIMELINE_READ_THREAD = '0';
        const one = await buildFromText(file, file);
        assert.ok(two && one && one.items.start.length > 0, name);
        assert.deepStrictEqual(two, one, name);
        assert.deepStrictEqual(one, byLines(text), name);
        assert.equal(previews.length, text.length > 8 << 20 ? 1 : 0, `${name}: ${text.length} characters`);
      }
    } finally {
      for (const [k, v] of [['NPU_TIMELINE_READ_MIN', env.min], ['NPU_TIMELINE_READ_THREAD', env.on]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the worker\'s way (a file on disk read as text, plain, CRLF, .gz, a cut .gz) draws the model its lines gave', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrome-tl-'));
    try {
      const text = kinetoTrainingTrace({ steps: 2, layers: 2 }).text;
      const crlf = text.replace(/\n/g, '\r\n');
      const gz = gzipSync(text);
      // Cut mid-way: the cut line is not drawn, the rest is.
      const cut = gz.subarray(0, gz.length >> 1);
      const cutText = gunzipSync(cut, { finishFlush: 2 }).toString('utf8');
      const cases: [string, string | Buffer, string, boolean][] = [['t.pt.trace.json', text, text, false], ['crlf.pt.trace.json', crlf, crlf, false], ['t.pt.trace.json.gz', gz, text, false], ['cut.pt.trace.json.gz', cut, cutText, true]];
      for (const [name, bytes, expected, cutOff] of cases) {
        const file = join(dir, name);
        writeFileSync(file, bytes);
        const previews: TimelineModel[] = [];
        const m = await buildFromText(file, file, (p) => previews.push(p));
        assert.ok(m, name);
        assert.deepStrictEqual(m, byLines(expected, cutOff), name);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
