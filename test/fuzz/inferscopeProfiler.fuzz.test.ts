// Property-based fuzzing of the InferScope Profiler layout (core/inferscope/profilerLayout.ts): a
// generated trace as InferScope's Profiler writes it, with events dropped, moved, duplicated and
// given odd values. Checking, the analysis, the outline, hover and the timeline never throw; the
// streamed check says what the whole one says; every range lies in the document.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { defaultDiagnosticSettings } from '../../core/common/settings';
import { splitLines } from '../../core/common/lines';
import { analyze } from '../../core/inferscope/analyze';
import { InferscopeDocument } from '../../core/inferscope/document';
import { hoverAt } from '../../core/inferscope/hover';
import { StreamedCheck } from '../../core/inferscope/streamCheck';
import { outline } from '../../core/inferscope/symbols';
import { buildTimeline } from '../../core/detectFormat';
import { profilerEvents, pythonJson } from '../gen/inferscopeProfiler';

type Ev = Record<string, unknown>;
const BASE = profilerEvents({ layers: 1, steps: 0, batch: 1 });
const ODD: unknown[] = [-1, 0, 1e300, 'x', null, [], {}, true, 1.5];

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant('dup' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), key: fc.constantFrom('type', 'name', 'timestamp_us', 'timestamp_start_us', 'duration_us', 'thread_id', 'stream_id'), v: fc.constantFrom(...ODD) }),
);

type Edit = { op: 'drop'; at: number } | { op: 'dup'; at: number } | { op: 'move'; at: number; to: number } | { op: 'set'; at: number; key: string; v: unknown };

function apply(edits: Edit[]): Ev[] {
  const ev = BASE.map((e) => ({ ...e }));
  for (const e of edits) {
    if (!ev.length) break;
    const i = e.at % ev.length;
    if (e.op === 'drop') ev.splice(i, 1);
    else if (e.op === 'move') ev.splice(e.to % ev.length, 0, ...ev.splice(i, 1));
    else if (e.op === 'dup') ev.splice(i, 0, { ...ev[i] });
    else if (e.op === 'set') ev[i] = { ...ev[i], [e.key]: e.v };
  }
  return ev;
}

describe("InferScope Profiler layout under mutation", () => {
  it('never throws; whole and streamed checks give the same codes; ranges lie in the document', () => {
    fc.assert(fc.property(fc.array(edit, { maxLength: 12 }), (edits) => {
      const text = pythonJson({ events: apply(edits) });
      const doc = InferscopeDocument.parse(text);
      const whole = doc.allDiagnostics();
      const lines = splitLines(text);
      for (const d of whole) assert.ok(d.range.end.line < lines.length && d.range.start.line <= d.range.end.line);
      const c = new StreamedCheck();
      for (let i = 0; i < text.length; i += 777) c.feed(text.slice(i, i + 777));
      const st = c.finish({ ...defaultDiagnosticSettings, maxProblems: Infinity }).diagnostics;
      const key = (ds: typeof whole) => ds.map((d) => `${d.severity} ${d.code}`).sort();
      if (doc.layout === 'profiler') assert.deepEqual(key(st), key(whole));
      analyze(doc);
      outline(doc);
      for (let o = 0; o < text.length; o += 997) hoverAt(doc, o);
      buildTimeline('trace.inferscope.json', lines);
    }), { numRuns: 60 });
  });
});
