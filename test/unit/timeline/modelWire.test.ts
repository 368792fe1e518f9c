// A model goes to the page in fewer bytes (protocol/modelWire.ts): constant columns as their value,
// small Uint32 columns narrowed, times as integer ticks where exact. What the page checks and draws
// must be the model the host built, element for element, on real PyTorch profiler traces, an NPU
// trace and edge values alike.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { buildTimeline } from '../../../core/detectFormat';
import { ITEM_COLUMNS, type TimelineModel } from '../../../core/timeline/model';
import { packModel, unpackModel } from '../../../protocol/modelWire';
import { parseHostMessage } from '../../../protocol/timeline';

const FIXTURES = join(__dirname, '../../fixtures');
const fromFile = (name: string) => buildTimeline(name, readFileSync(join(FIXTURES, name), 'utf8').split('\n'))!;

/** Bytes of every typed array in `x` (what crosses as binary). */
function bytesOf(x: unknown): number {
  if (ArrayBuffer.isView(x)) return x.byteLength;
  if (typeof x !== 'object' || x === null) return 0;
  let n = 0;
  for (const v of Object.values(x)) n += bytesOf(v);
  return n;
}

const VIEWS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array];

/**
 * A message as VS Code's webview postMessage carries it from the extension host (extHostWebview's
 * serializeWebviewMessage, read in code-server 4.100.3): JSON, with each typed array replaced by a
 * reference to a copy of its buffer and revived as a view of the same type on the other side. JSON
 * has no NaN, infinities or -0: what the model sends must not depend on them.
 */
function overVsCode<T>(x: T): T {
  const buffers: ArrayBuffer[] = [];
  const text = JSON.stringify(x, (_k, v: unknown) => {
    if (!ArrayBuffer.isView(v)) return v;
    const type = VIEWS.findIndex((c) => v.constructor === c);
    assert.ok(type >= 0, `a typed array VS Code does not post: ${v.constructor.name}`);
    buffers.push(v.buffer.slice(0) as ArrayBuffer);
    return { $ref: buffers.length - 1, type, byteOffset: v.byteOffset, byteLength: v.byteLength };
  });
  return JSON.parse(text, (_k, v: { $ref?: number; type: number; byteOffset: number; byteLength: number }) => {
    if (typeof v !== 'object' || v === null || v.$ref === undefined) return v;
    const C = VIEWS[v.type];
    return new C(buffers[v.$ref], v.byteOffset, v.byteLength / C.BYTES_PER_ELEMENT);
  }) as T;
}

/** Through VS Code's postMessage, then the page's parse. */
function received(m: TimelineModel): TimelineModel {
  const parsed = parseHostMessage(overVsCode({ type: 'model', uri: 'file:///a', fileName: 'a', model: packModel(m), complete: true }));
  assert.ok(parsed && parsed.type === 'model', 'the page took the packed model');
  return parsed.model;
}

describe('the model as it crosses to the page', () => {
  for (const name of ['real/pytorch/eager-step.pt.trace.json', 'real/pytorch/compiled-step.pt.trace.json', 'real/pytorch/kineto-2021.pt.trace.json', 'chrome/one-line.pt.trace.json', 'trace/valid-all-events.trace.jsonl']) {
    it(`is the host's model on the page: ${name}`, () => {
      const m = fromFile(name);
      assert.ok(m.items.start.length > 0);
      assert.deepStrictEqual(received(m), m);
    });
  }

  it('takes under 0.6 of the bytes for a PyTorch trace (no ids, no END lines, small indices, whole nanoseconds)', () => {
    const m = fromFile('real/pytorch/eager-step.pt.trace.json');
    const packed = bytesOf(packModel(m));
    assert.ok(packed < 0.6 * bytesOf(m), `${packed} of ${bytesOf(m)} bytes`);
  });

  it('keeps every value: NaN, -0, infinities, the narrowing limits', () => {
    const values = fc.constantFrom(0, -0, 1, 255, 256, 65535, 65536, 2 ** 32 - 1, NaN, Infinity, -Infinity, 0.5);
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }), fc.array(values, { minLength: 1, maxLength: 4 }), fc.boolean(), (n, pool, same) => {
      const m = fromFile('trace/valid-all-events.trace.jsonl');
      const pick = (i: number) => (same ? pool[0] : pool[i % pool.length]);
      const items = m.items as unknown as Record<string, { constructor: new (n: number) => ArrayLike<number> & Record<number, number> }>;
      const cols: Record<string, ArrayLike<number>> = {};
      for (const k of ITEM_COLUMNS) {
        const a = new items[k].constructor(n);
        for (let i = 0; i < n; i++) a[i] = k === 'start' ? i : pick(i);
        cols[k] = a;
      }
      const lastLine = new Uint32Array(n).map((_, i) => pick(i));
      const model = { ...m, items: cols, lastLine } as unknown as TimelineModel;
      const back = unpackModel(overVsCode(packModel(model))) as TimelineModel;
      for (const k of [...ITEM_COLUMNS]) {
        assert.equal(back.items[k].constructor, model.items[k].constructor, k);
        assert.deepStrictEqual(Array.from(back.items[k]), Array.from(model.items[k]), k);
      }
      assert.deepStrictEqual(back.lastLine, lastLine);
    }), { numRuns: 300, seed: 31 });
  });

  it('keeps every time and line: microseconds with decimals, cycles, spans past 2^32 ticks, -0, NaN', () => {
    // Starts as a trace writes them: near one base (µs with three decimals, or cycles), now and then
    // one no tick gives back exactly or one 2^32 ticks away; a duration likewise.
    const base = fc.constantFrom(0, 3_118_372.64, 1.7e9, 1.7e12);
    const dur = fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 50_000_000 }).map((k) => k / 1000) }, { weight: 1, arbitrary: fc.constantFrom(-1, NaN, 5e6, 0.1, -0) });
    const item = fc.record({ step: fc.integer({ min: 0, max: 4_000_000 }), dur, line: fc.nat(200_000), after: fc.oneof({ weight: 20, arbitrary: fc.nat(300) }, { weight: 1, arbitrary: fc.constantFrom(70_000, -1) }) });
    // In two of three arrays, one start no tick gives back exactly, or 2^32 ticks away from the others.
    const spoiler = fc.option(fc.record({ at: fc.nat(), start: fc.constantFrom(-0, NaN, 0.1 + 0.2, 2 ** 53, 1e15 + 0.125, Infinity, 5e12) }), { freq: 3 });
    let ticked = 0;
    fc.assert(fc.property(base, fc.boolean(), fc.array(item, { minLength: 2, maxLength: 30 }), spoiler, (b, cycles, drawn, spoil) => {
      const rows = drawn.map((r, i) => ({ ...r, start: spoil && spoil.at % drawn.length === i ? spoil.start : cycles ? Math.round(b) + r.step : Number((b + r.step / 1000).toFixed(3)) }));
      const m = fromFile('trace/valid-all-events.trace.jsonl');
      const cols = { ...m.items };
      for (const k of ITEM_COLUMNS) (cols as Record<string, unknown>)[k] = new (m.items[k].constructor as new (n: number) => ArrayLike<number>)(rows.length);
      cols.start = Float64Array.from(rows, (r) => r.start);
      cols.end = Float64Array.from(rows, (r) => r.start + r.dur);
      cols.line = Uint32Array.from(rows, (r) => r.line);
      const lastLine = Uint32Array.from(rows, (r) => r.line + r.after);
      const model = { ...m, items: cols, lastLine } as TimelineModel;
      const wire = packModel(model) as { items: { start: unknown } };
      if (!ArrayBuffer.isView(wire.items.start)) ticked++;
      const back = unpackModel(overVsCode(wire)) as TimelineModel;
      for (const k of ['start', 'end', 'line'] as const) assert.deepStrictEqual(back.items[k], model.items[k], k);
      assert.deepStrictEqual(back.lastLine, lastLine);
    }), { numRuns: 500, seed: 31 });
    // Both ways were taken: as ticks, and as they are (a spoiler in two of three arrays).
    assert.ok(ticked > 100 && ticked < 400, `${ticked} of 500 as ticks`);
  });

  it('sends a PyTorch trace\'s times as integer ticks, an NPU trace\'s cycles too', () => {
    for (const name of ['real/pytorch/eager-step.pt.trace.json', 'trace/valid-all-events.trace.jsonl']) {
      const wire = packModel(fromFile(name)) as { items: Record<string, unknown> };
      assert.ok(!ArrayBuffer.isView(wire.items.start) && !ArrayBuffer.isView(wire.items.end), name);
    }
  });

  it('a filled column is only ever as long as the items the message carries', () => {
    const m = fromFile('trace/valid-all-events.trace.jsonl');
    const wire = packModel(m) as { items: Record<string, unknown> };
    wire.items.end = { fill: Float64Array.of(1) };
    const back = unpackModel(wire) as TimelineModel;
    assert.equal(back.items.end.length, m.items.start.length);
    // Without a start column to count by, nothing is widened, and the page's check refuses it.
    wire.items.start = { fill: Float64Array.of(1) };
    assert.equal(parseHostMessage({ type: 'model', uri: 'file:///a', fileName: 'a', model: wire, complete: true }), undefined);
  });
});
