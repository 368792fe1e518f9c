import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { analyze } from '../../../core/inferscope/analyze';
import { InferscopeDocument } from '../../../core/inferscope/document';
import type { ParsedInferscope } from '../../../core/inferscope/model';
import { parseInferscope } from '../../../core/inferscope/parser';
import { slimEvent, slimScope } from '../../../core/inferscope/keptFields';
import { InferscopeStream } from '../../../core/inferscope/stream';
import { defaultDiagnosticSettings } from '../../../core/common/settings';
import { StreamedCheck } from '../../../core/inferscope/streamCheck';
import { faultyInferscope, inferscopeTrace, pretty } from '../../gen/inferscopeGen';

/** The stream fed `text` cut into pieces of the given sizes (cycled). */
function streamed(text: string, sizes: number[]): ParsedInferscope {
  const st = new InferscopeStream();
  for (let i = 0, k = 0; i < text.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length]);
    st.feed(text.slice(i, i + n));
    i += n;
  }
  return st.end();
}

const view = (p: ParsedInferscope, slim: boolean) => ({
  rootKind: p.rootKind,
  events: p.events.map((e) => ({ index: e.index, start: e.start, end: e.end, kind: e.kind, broken: e.broken, obj: e.obj && (slim ? slimEvent(e.obj) : e.obj) })),
  scopes: p.scopes.map((e) => ({ index: e.index, start: e.start, end: e.end, kind: e.kind, broken: e.broken, obj: e.obj && (slim ? slimScope(e.obj) : e.obj) })),
  fields: [...p.fields.keys()],
  meta: p.fields.get('trace_metadata')?.value,
  syntax: p.syntax.length,
});

describe('InferScope streamed reader', () => {
  const TEXT = pretty(inferscopeTrace({ requests: 3, kernels: 2 }));
  const full = parseInferscope(TEXT);

  it('fed in chunks of any size, it reads what the whole-text parser reads (offsets, lines, slim fields)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 }), (sizes) => {
      const p = streamed(TEXT, sizes);
      assert.deepEqual(view(p, false), view(full, true));
      for (const e of p.events) assert.equal(e.line, full.lineStarts.filter((s: number) => s <= e.start).length - 1);
    }), { numRuns: 60 });
    // One character at a time, and the whole text at once.
    assert.deepEqual(view(streamed(TEXT, [1]), false), view(full, true));
    assert.deepEqual(view(streamed(TEXT, [TEXT.length]), false), view(full, true));
  });

  it('its analysis equals the analysis of the text parsed whole', () => {
    const a = analyze(new InferscopeDocument(streamed(TEXT, [4096])));
    assert.deepEqual(a, analyze(InferscopeDocument.parse(TEXT)));
  });

  it('keys and strings with escapes, brackets in strings, a compact one-line file, a BOM', () => {
    const t = `\uFEFF${JSON.stringify({ format_version: '1.0', 'we\\"ird': 'x]}', events: [{ id: 'a"]}', type: 'instant', name: '\\\\', timestamp_us: 1 }, { id: 'b', type: 'cpu_call', name: 'c', timestamp_start_us: 1, timestamp_end_us: 2 }], relationships: { other: [1, { '}': ']' }], scopes: [{ id: 's', name: 'n', event_range: [0, 1] }] } })}`;
    for (const sizes of [[1], [2, 3], [7]]) {
      const p = streamed(t, sizes);
      const whole = parseInferscope(t.slice(1));
      assert.deepEqual(p.events.map((e) => e.obj), whole.events.map((e) => slimEvent(e.obj!)));
      assert.deepEqual(p.scopes.map((e) => e.obj), whole.scopes.map((e) => slimScope(e.obj!)));
      assert.deepEqual([...p.fields.keys()], [...whole.fields.keys()]);
      assert.deepEqual(p.events.map((e) => e.obj!.id), ['a"]}', 'b']);
      assert.deepEqual(p.scopes.map((e) => e.obj!.id), ['s']);
      assert.deepEqual(p.syntax, []);
    }
  });

  it('events whose fields do not fit the columns (a string time, a numeric id, metadata of the wrong kind) read back as the whole-text parser reads them', () => {
    const events = [
      { id: 7, type: 'cpu_call', name: 'n', timestamp_start_us: '1', timestamp_end_us: 2 },
      { id: { x: 1 }, type: 3, name: null, timestamp_start_us: 1, timestamp_end_us: 2, metadata: [1] },
      { id: 'k', type: 'gpu_kernel', name: 'g', timestamp_start_us: 1, timestamp_end_us: 4, duration_us: 3, metadata: { device_id: '0', stream_id: 1 } },
      { id: 'c', type: 'h2d_copy', name: 'c', timestamp_start_us: 0, timestamp_end_us: 9, metadata: { device_id: 0, bytes: null, kind: 5, operation: 'x', extra: 1 } },
      { id: 'm', type: 'memory_event', name: 'm', timestamp_start_us: 2, timestamp_end_us: 3, metadata: {} },
      { id: 'i', type: 'instant', name: 'x'.repeat(100), timestamp_us: 5, metadata: { thread_id: 1, kind: 'pinned', occupancy: 0.5, throughput_gbps: -0 } },
      { type: 'cpu_call' },
      [1, 2],
      'str',
      { id: 'k2', type: 'gpu_kernel', name: 'g', timestamp_start_us: 2, timestamp_end_us: 5, metadata: { device_id: 0, stream_id: 1 } },
    ];
    // 1e400 is read as Infinity: a number the columns hold as it is.
    const t = JSON.stringify({ format_version: '1.0', events, relationships: { scopes: [{ id: 's', name: 'n', event_range: [0, 9] }] } }, null, 2).replace('"occupancy": 0.5', '"occupancy": 1e400');
    const whole = parseInferscope(t);
    for (const sizes of [[1], [5, 11], [t.length]]) {
      const p = streamed(t, sizes);
      assert.deepEqual(view(p, false), view(whole, true));
      assert.equal(p.events.length, events.length);
      assert.equal(p.events[events.length], undefined);
      assert.deepEqual(analyze(new InferscopeDocument(p)), analyze(InferscopeDocument.parse(t)));
    }
  });

  it('a "}" where an event or scope should begin is a syntax problem, and the reading stops (it looped on it forever)', () => {
    for (const [text, at] of [['{"events":[}]}', 11], ['{"events":[],"relationships":{"scopes":[{"id":"s"},}]}}', 51]] as const) {
      assert.equal(text[at], '}');
      const p = streamed(text, [3]);
      assert.deepEqual(p.syntax.map((x) => [x.start, x.message]), [[at, 'Unexpected character "}"']]);
    }
  });

  it('a truncated file: the cut event is broken and the end is a syntax problem, the events before it are read', () => {
    const cut = TEXT.slice(0, TEXT.indexOf('"id": "h2d_1"'));
    const p = streamed(cut, [1000]);
    assert.ok(p.syntax.length >= 1);
    assert.equal(p.events[p.events.length - 1].broken, true);
    assert.ok(p.events.slice(0, -1).every((e) => !e.broken && e.obj));
  });
});

describe('InferScope streamed check', () => {
  const RUN = new Set(['inferscope.invalid-json', 'inferscope.duplicate-id', 'inferscope.end-before-start', 'inferscope.duration-mismatch', 'inferscope.kernel-overlap',
    'inferscope.scope-containment', 'inferscope.unknown-scope', 'inferscope.event-range', 'inferscope.scope-cycle']);

  it('finds what the whole-text check finds of the codes it runs, each at the start of its event or scope', () => {
    const text = faultyInferscope().replace('NaN', '1');
    const whole = InferscopeDocument.parse(text).allDiagnostics().filter((d) => RUN.has(d.code));
    assert.ok(whole.length >= 6, whole.map((d) => d.code).join());
    for (const [sizes, settings] of [[[1 << 20], undefined], [[13, 7], undefined], [[13, 7], { ...defaultDiagnosticSettings, maxProblems: Infinity }]] as const) {
      // With its settings from the start it checks each event as it comes (what the CLI does).
      const c = new StreamedCheck(settings);
      for (let i = 0, k = 0; i < text.length; k++) {
        const n = sizes[k % sizes.length];
        c.feed(text.slice(i, i + n));
        i += n;
      }
      const got = c.finish({ ...defaultDiagnosticSettings, maxProblems: Infinity }).diagnostics;
      assert.deepEqual(got.map((d) => d.code).sort(), whole.map((d) => d.code).sort());
      const lines = text.split('\n');
      for (const d of got) {
        // The start of an element: its opening brace (or a key of the root object).
        const ch = lines[d.range.start.line][d.range.start.character];
        assert.ok(ch === '{' || ch === '"', `${d.code} at ${JSON.stringify(d.range.start)}: ${ch}`);
      }
      const dup = got.find((d) => d.code === 'inferscope.duplicate-id')!;
      assert.match(dup.message, /Duplicate event id "tok_0"/);
    }
  });
});
