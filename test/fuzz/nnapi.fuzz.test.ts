// Property-based fuzzing of the NNAPI systrace core: malformed rows, timestamps going backwards,
// interleaved threads, random [SW]/[SUB]/HIDL marks, HTML wrapping. Whatever the input, analysis,
// summaries and navigation never throw, ranges stay inside their lines, and the streaming checker
// agrees with the editor's document.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { splitLines } from '../../core/common/lines';
import { defaultDiagnosticSettings } from '../../core/common/settings';
import { NnapiDocument } from '../../core/nnapi/document';
import { nnapiFormat } from '../../core/nnapi/descriptor';
import { callPath, scopeAtLine } from '../../core/nnapi/navigation';
import { summarize, summaryJson, summaryText } from '../../core/nnapi/summary';
import { assertSaneRanges } from '../unit/trace/helpers';

const CODES = new Set(['nnapi.phase-nesting', 'nnapi.layer-nesting', 'nnapi.unmatched-end', 'nnapi.unclosed-begin', 'nnapi.unparsed-mark',
  'nnapi.unknown-tag', 'nnapi.no-runtime', 'too-many-problems']);

const LAYER = fc.constantFrom('LA', 'LR', 'LI', 'LD', 'LC', 'LU', 'LO', 'LX', 'LQ');
const PHASE = fc.constantFrom('PO', 'PWU', 'PBM', 'PI', 'PP', 'PC', 'PE', 'PT', 'PU', 'PIO', 'PTR', 'PCO', 'PR', 'PZ');
const FN = fc.constantFrom('f', 'ANeuralNetworksExecution_create', 'ANeuralNetworksExecution_startCompute', 'ANeuralNetworksEvent_wait',
  'ANeuralNetworksEvent_free', 'getSupportedExtensions', 'executeWithCompilation', '', 'a|b', '[x]y');
const HIDL = fc.constantFrom('HIDL::IDevice::prepareModel_1_1::client', 'HIDL::IDevice::prepareModel_1_1::server', 'HIDL::IPreparedModelCallback::notify::client',
  'HIDL::IPreparedModel::execute::server', 'HIDL::IExecutionCallback::notify::client', 'HIDL::IAllocator::allocate::passthrough', 'HIDL::IFoo::bar', 'draw');
const MARKER = fc.constantFrom('', '', '', '[SW]', '[SUB]', '[SW][SUB]');

const beginText = fc.oneof(
  fc.tuple(MARKER, LAYER, PHASE, FN).map(([m, l, p, f]) => `${m}[NN_${l}_${p}]${f}`),
  HIDL,
  fc.constantFrom('[NN_LR]x', '[NN_LR_PP]', '[NN_LA_PO]run'),
);

interface Ev { pid: number; tgid: number; dt: number; mark: string; old: boolean }
const event = fc.record({
  pid: fc.integer({ min: 1, max: 4 }),
  tgid: fc.constantFrom(1, 2, 3),
  dt: fc.integer({ min: -3, max: 50 }),
  old: fc.boolean(),
  mark: fc.oneof(
    { weight: 3, arbitrary: beginText.map((t) => `B|%TGID%|${t}`) },
    { weight: 3, arbitrary: fc.constantFrom('E', 'E|%TGID%') },
  ),
});

function render(evs: Ev[]): string[] {
  let t = 100_000_000; // µs
  return evs.map((e) => {
    t += e.dt * 1000; // may go backwards
    const time = `${Math.floor(t / 1e6)}.${String(Math.abs(t % 1e6)).padStart(6, '0')}`;
    const mark = e.mark.replace('%TGID%', String(e.tgid));
    return e.old ? `  task-${e.pid}   [000] ...1   ${time}: tracing_mark_write: ${mark}`
      : `  task name-${e.pid}  (${e.tgid === 3 ? '-----' : String(e.tgid).padStart(5)}) [000] ...1   ${time}: tracing_mark_write: ${mark}`;
  });
}

/** Character damage on some lines: truncation, insertion, deletion. */
const damage = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('cut', 'insert', 'delete'), fc.string({ maxLength: 3 })), { maxLength: 6 });

function mutate(lines: string[], muts: [number, number, string, string][]): string[] {
  const out = [...lines];
  for (const [li, pos, how, s] of muts) {
    if (!out.length) break;
    const i = li % out.length;
    const l = out[i];
    const p = pos % (l.length + 1);
    out[i] = how === 'cut' ? l.slice(0, p) : how === 'insert' ? l.slice(0, p) + s + l.slice(p) : l.slice(0, p) + l.slice(p + 1);
  }
  return out;
}

const traceText = fc.tuple(fc.array(event, { maxLength: 60 }), damage, fc.constantFrom('plain', 'header', 'html'), fc.constantFrom('\n', '\r\n'))
  .map(([evs, muts, wrap, eol]) => {
    const body = mutate(render(evs), muts);
    const header = '#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION';
    const lines = wrap === 'plain' ? body : wrap === 'header' ? ['# tracer: nop', header, ...body]
      : ['<!DOCTYPE html>', '<script>[NN_LR_PP] not a row</script>', '<script class="trace-data">', header, ...body, '</script>', '</html>'];
    return lines.join(eol);
  });

function exercise(text: string): void {
  const lines = splitLines(text);
  const doc = NnapiDocument.parse(text);
  const all = doc.allDiagnostics();
  assertSaneRanges(all, lines);
  const shown = doc.diagnostics(defaultDiagnosticSettings);
  assert.ok(shown.length <= defaultDiagnosticSettings.maxProblems + 1);
  for (const d of all) {
    assert.ok(CODES.has(d.code), `unknown code ${d.code}`);
    assert.ok(d.message.length > 0 && !/undefined|\[object/.test(d.message), `message: ${d.message}`);
  }
  for (const totalTimes of [false, true]) {
    for (const perExecution of [false, true]) {
      const runs = summarize(doc.analysis, { totalTimes, perExecution });
      assert.ok(Array.isArray(JSON.parse(summaryJson(doc.analysis, { totalTimes, perExecution }))));
      assert.equal(typeof summaryText(runs), 'string');
    }
  }
  for (let i = 0; i < lines.length; i++) {
    const s = scopeAtLine(doc.analysis, i);
    if (s) assert.ok(callPath(s.scope).length >= 1 || s.scope.layer === 'LX');
  }
  // The CLI streams the same lines through the format's checker: same diagnostics.
  const c = nnapiFormat.createChecker!();
  lines.forEach((l, i) => c.add(l, i));
  const key = (ds: typeof all) => ds.map((d) => `${d.range.start.line}:${d.range.start.character}:${d.code}`).sort();
  assert.deepEqual(key(c.finish()), key(all));
}

describe('nnapi fuzz', () => {
  it('generated traces: interleaved threads, backwards timestamps, damaged rows, HTML', () =>
    fc.assert(fc.property(traceText, exercise), { numRuns: 400 }));

  it('random strings', () => fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), exercise), { numRuns: 200 }));

  // Analysed before the edit, so the update has runs it may wrongly reuse.
  it('incremental edits give the same diagnostics as a fresh parse', () =>
    fc.assert(fc.property(traceText, traceText, fc.nat(), (a, b, at) => {
      const la = splitLines(a);
      const lb = splitLines(b);
      const start = at % (la.length + 1);
      const end = Math.min(la.length, start + (at % 3));
      const merged = [...la.slice(0, start), ...lb, ...la.slice(end)];
      const doc = NnapiDocument.parse(a);
      doc.allDiagnostics();
      doc.update([{ start, end, newCount: lb.length }], (i) => merged[i]);
      const fresh = NnapiDocument.parse(merged.join('\n'));
      const key = (ds: ReturnType<typeof doc.allDiagnostics>) => ds.map((d) => `${d.range.start.line}:${d.range.start.character}:${d.code}`).sort();
      assert.deepEqual(key(doc.allDiagnostics()), key(fresh.allDiagnostics()));
    }), { numRuns: 150 }));

  // The editor reuses the analysis of every run an edit did not touch: after each edit of a
  // sequence (analysed in between, so there is something to reuse), everything it answers —
  // diagnostics with their messages, the summary's numbers, what each line opens or closes —
  // equals a fresh parse of the same text.
  const edit = fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('type', 'type', 'type', 'newline', 'join', 'replace'), fc.string({ maxLength: 4 }), fc.nat());
  it('a sequence of edits, analysed after each, answers as a fresh parse', () =>
    fc.assert(fc.property(traceText, fc.array(edit, { minLength: 1, maxLength: 8 }), traceText, (text, edits, other) => {
      let lines = splitLines(text);
      const doc = NnapiDocument.parse(text);
      doc.allDiagnostics();
      const otherLines = splitLines(other);
      for (const [li, pos, how, s, k] of edits) {
        const i = li % lines.length;
        const l = lines[i];
        const p = pos % (l.length + 1);
        let e: { start: number; end: number; newCount: number };
        let repl: string[];
        if (how === 'type') [e, repl] = [{ start: i, end: i + 1, newCount: 1 }, [l.slice(0, p) + s + l.slice(p)]];
        else if (how === 'newline') [e, repl] = [{ start: i, end: i + 1, newCount: 2 }, [l.slice(0, p), l.slice(p)]];
        else if (how === 'join' && i + 1 < lines.length) [e, repl] = [{ start: i, end: i + 2, newCount: 1 }, [l + lines[i + 1]]];
        else [e, repl] = [{ start: i, end: i + 1, newCount: 1 }, [otherLines[k % otherLines.length]]];
        lines = [...lines.slice(0, e.start), ...repl, ...lines.slice(e.end)];
        const now = lines;
        doc.update([e], (j) => now[j]);
        const fresh = NnapiDocument.parse(lines.join('\n'));
        assert.deepEqual(doc.allDiagnostics(), fresh.allDiagnostics());
        for (const totalTimes of [false, true]) assert.equal(summaryJson(doc.analysis, { totalTimes }), summaryJson(fresh.analysis, { totalTimes }));
        const at = (d: NnapiDocument, j: number) => {
          const x = scopeAtLine(d.analysis, j);
          return x && `${x.role} ${x.scope.line} ${x.scope.endLine} ${x.scope.fn} ${x.scope.layer} ${x.scope.time}`;
        };
        for (let j = 0; j < lines.length; j++) assert.equal(at(doc, j), at(fresh, j), `line ${j}`);
      }
    }), { numRuns: 300 }));
});
