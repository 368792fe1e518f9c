import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Diagnostic } from '../../../core/common/diagnostic';
import { defaultDiagnosticSettings } from '../../../core/common/settings';
import { looksLikeProfilerStart, topLevelInferscopeKind } from '../../../core/inferscope/detect';
import { InferscopeDocument } from '../../../core/inferscope/document';
import { SpanKind } from '../../../core/inferscope/profilerLayout';
import { StreamedCheck } from '../../../core/inferscope/streamCheck';
import { outline, type OutlineNode } from '../../../core/inferscope/symbols';
import { hoverAt } from '../../../core/inferscope/hover';
import { inferscopeTrace, pretty } from '../../gen/inferscopeGen';
import { profilerEvents, profilerTrace, pythonJson, PROFILER_FIXTURES, unifiedTimeline } from '../../gen/inferscopeProfiler';

const ROOT = join(__dirname, '..', '..', '..');
type Ev = Record<string, unknown>;

const small = () => profilerEvents({ layers: 1, steps: 1, batch: 2 });
const whole = (text: string) => InferscopeDocument.parse(text).allDiagnostics();
/** The streamed check's problems, the same whether it is given its settings at the start (as the CLI does) or not. */
function streamed(text: string, piece = 4093): Diagnostic[] {
  const settings = { ...defaultDiagnosticSettings, maxProblems: Infinity };
  const [late, early] = [new StreamedCheck(), new StreamedCheck(settings)].map((c) => {
    for (let i = 0; i < text.length; i += piece) c.feed(text.slice(i, i + piece));
    return c.finish(settings).diagnostics;
  });
  assert.deepEqual(early, late);
  return late;
}
const codes = (ds: Diagnostic[]) => ds.map((d) => `${d.severity} ${d.code}`);

describe("InferScope traces in the layout InferScope's Profiler writes", () => {
  it('the committed fixtures are what the generator writes', () => {
    for (const [file, make] of Object.entries(PROFILER_FIXTURES)) assert.equal(readFileSync(join(ROOT, file), 'utf8'), make(), `${file} is stale`);
  });

  it('is told from the data model layout by its content, whole and from its first bytes', () => {
    for (const file of Object.keys(PROFILER_FIXTURES)) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      assert.equal(InferscopeDocument.parse(text).layout, 'profiler');
      assert.ok(looksLikeProfilerStart(text.slice(0, 1 << 20)), file);
      assert.ok(looksLikeProfilerStart(JSON.stringify(JSON.parse(text))), `${file} compact`);
      // The editor's switch of a plain .json to InferScope reads the same first bytes.
      assert.equal(topLevelInferscopeKind(text.slice(0, 1 << 20)), 'trace');
    }
    const model = pretty(inferscopeTrace({ requests: 1 }));
    assert.equal(InferscopeDocument.parse(model).layout, 'data-model');
    assert.equal(looksLikeProfilerStart(model), false);
    // A data-model trace that lost its version keeps its ids: still read as the data model (and told so).
    const noVersion = inferscopeTrace({ requests: 1 });
    delete noVersion.format_version;
    assert.equal(InferscopeDocument.parse(pretty(noVersion)).layout, 'data-model');
    assert.equal(looksLikeProfilerStart('{"traceEvents": [{"type": "cpu_call"'), false);
    assert.equal(topLevelInferscopeKind('{"events": [{"name": "x", "ph": "X"}]}'), undefined);
  });

  it('pairs each call with its return per thread (nested), scopes by name, and ends kernels and copies at their stamp', () => {
    const events = small();
    const s = InferscopeDocument.parse(pythonJson({ events })).profiler;
    const calls = events.filter((e) => e.type === 'cpu_call').length;
    const kinds = (k: SpanKind) => [...s.kind.subarray(0, s.length)].filter((x) => x === k).length;
    assert.equal(kinds(SpanKind.Call), calls);
    assert.equal(kinds(SpanKind.Scope), 5);
    assert.equal(kinds(SpanKind.Kernel), events.filter((e) => e.type === 'gpu_kernel').length);
    // Every call but Profiler.stop's own is closed by the return of the same name, later.
    const open: string[] = [];
    for (let i = 0; i < s.length; i++) {
      if (s.kind[i] !== SpanKind.Call) continue;
      if (s.last[i] < 0) open.push(s.name[i]);
      else {
        assert.equal(events[s.last[i]].type, 'cpu_return');
        assert.equal(events[s.last[i]].name, s.name[i]);
        assert.ok(s.end[i] >= s.start[i]);
      }
    }
    assert.deepEqual(open, ['stop']);
    // A layer's ln_1: _wrapped_call_impl → _call_impl → inner → forward → layer_norm, each one deeper and inside its caller.
    const ln = s.name.indexOf('layer_norm');
    let depth = s.depth[ln];
    for (let c = s.caller[ln], inner = ln; c >= 0; inner = c, c = s.caller[c]) {
      assert.equal(s.depth[c], --depth);
      assert.ok(s.start[c] <= s.start[inner] && s.end[c] >= s.end[inner]);
    }
    assert.equal(depth, 0);
    // A kernel is stamped once it has ended: [timestamp_us − duration_us, timestamp_us].
    const k = [...s.kind].indexOf(SpanKind.Kernel);
    const ev = events[s.first[k]];
    assert.deepEqual([s.start[k], s.end[k]], [(ev.timestamp_us as number) - (ev.duration_us as number), ev.timestamp_us]);
    assert.equal(s.lane[k], ev.stream_id);
    assert.equal(s.name[s.scope[k]], 'inference');
  });

  it('check of every fixture: no error, no warning, whole and streamed; only the call tracing stopped in is said', () => {
    for (const file of Object.keys(PROFILER_FIXTURES)) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const ds of [whole(text), streamed(text), streamed(JSON.stringify(JSON.parse(text)), 65536)]) {
        assert.deepEqual(codes(ds), ['information inferscope.call-open-at-end'], file);
        assert.match(ds[0].message, /"stop" .* still running when tracing stopped/);
      }
    }
  });

  /** The small trace with `mutate` applied; the codes and lines its whole and streamed checks give. */
  function checked(mutate: (events: Ev[]) => void, unified = false): { whole: string[]; streamed: string[] } {
    const events = small();
    mutate(events);
    const text = pythonJson({ events: unified ? unifiedTimeline(events) : events });
    const line = (d: Diagnostic) => `${d.range.start.line} ${d.severity} ${d.code}`;
    const w = whole(text).filter((d) => d.code !== 'inferscope.call-open-at-end');
    const st = streamed(text).filter((d) => d.code !== 'inferscope.call-open-at-end');
    // The streamed check has no text: it reports at the event's line, the whole check on the field.
    assert.deepEqual(st.map((d) => `${d.severity} ${d.code}`), w.map((d) => `${d.severity} ${d.code}`));
    return { whole: w.map(line), streamed: st.map(line) };
  }
  const at = (events: Ev[], type: string, name: string, nth = 0) => events.filter((e) => e.type === type && e.name === name)[nth];

  it('a return that closes no call, a call that lost its return, scope exits without enters and scopes never exited', () => {
    const r = checked((ev) => {
      // A stray return before anything was called on a second thread.
      ev.unshift({ type: 'cpu_return', name: 'ghost', timestamp_us: ev[0].timestamp_start_us, thread_id: 7, return_type: 'None', metadata: { event: 'return' } });
      // The return of layer_norm is lost: _call_impl's forward returns past it.
      ev.splice(ev.indexOf(at(ev, 'cpu_return', 'layer_norm')), 1);
      ev.splice(ev.indexOf(at(ev, 'scope_enter', 'decoding')), 1);
      ev.splice(ev.indexOf(at(ev, 'scope_exit', 'h2d_transfer')), 1);
    });
    assert.deepEqual(r.whole.map((x) => x.replace(/^\d+ /, '')), [
      'warning inferscope.return-without-call', 'warning inferscope.scope-unclosed', 'warning inferscope.call-unreturned', 'warning inferscope.exit-without-enter',
    ]);
  });

  it('a negative duration, a time that is not a number and a return before its call are errors, in both orders the Profiler saves', () => {
    // Sorted by time (get_unified_timeline), the early return comes before its call: it closes nothing, and the call is left open.
    const returnBeforeCall = [['error inferscope.end-before-start'], ['warning inferscope.call-unreturned', 'warning inferscope.return-without-call']];
    for (const unified of [false, true]) {
      const r = checked((ev) => {
        const k = ev.find((e) => e.type === 'gpu_kernel')!;
        k.duration_us = -5;
        ev.find((e) => e.type === 'h2d_copy')!.timestamp_us = '12:00';
        const ret = at(ev, 'cpu_return', 'get_head_mask');
        ret.timestamp_us = (at(ev, 'cpu_call', 'get_head_mask').timestamp_start_us as number) - 3;
      }, unified);
      assert.deepEqual([...r.whole.map((x) => x.replace(/^\d+ /, ''))].sort(), ['error inferscope.negative-duration', 'error inferscope.schema', ...returnBeforeCall[+unified]].sort());
    }
  });

  it('no "missing id" or "missing format_version" on this layout; the data model checks still run on the data model', () => {
    const ds = whole(profilerTrace({ layers: 2, steps: 2 }));
    assert.deepEqual(ds.filter((d) => d.severity !== 'information'), []);
    const model = inferscopeTrace({ requests: 1 });
    delete (model.events as Ev[])[0].id;
    assert.ok(whole(pretty(model)).some((d) => d.code === 'inferscope.schema' && /"id"/.test(d.message)));
  });

  it('the outline: scopes as entered, under each its kernels, copies and outermost calls by type, calls under their callers', () => {
    const text = readFileSync(join(ROOT, Object.keys(PROFILER_FIXTURES)[0]), 'utf8');
    const tree = outline(InferscopeDocument.parse(text));
    const names = (l: OutlineNode[]) => l.map((n) => n.name);
    assert.deepEqual(names(tree.filter((n) => n.kind === 'scope')), ['tokenization', 'h2d_transfer', 'inference', 'd2h_transfer', 'decoding']);
    const inference = tree.find((n) => n.name === 'inference')!;
    assert.deepEqual(names(inference.children), ['cpu_call', 'gpu_kernel', 'd2h_copy']);
    const kernels = inference.children[1].children;
    assert.ok(kernels.some((k) => k.name === 'transformer.h.0.attn.c_attn'));
    const greedy = inference.children[0].children[0];
    assert.equal(greedy.name, 'generate_greedy');
    assert.equal(greedy.children[0].name, '_wrapped_call_impl');
    // Every child lies inside its parent, as LSP document symbols must.
    const inside = (n: OutlineNode): boolean => n.children.every((c) => c.start >= n.start && c.end <= n.end && inside(c));
    assert.ok(tree.every(inside));
  });

  it('hover: a call with its return, file:line, callers and scope; a kernel with its stream', () => {
    const text = readFileSync(join(ROOT, Object.keys(PROFILER_FIXTURES)[0]), 'utf8');
    const doc = InferscopeDocument.parse(text);
    const ln = text.indexOf('"name": "layer_norm"');
    const h = hoverAt(doc, ln)!.markdown;
    assert.match(h, /^\*\*cpu\\_call\*\* `layer_norm`/);
    assert.match(h, /closed by event \d+/);
    assert.match(h, /functional\.py`:2901/);
    // 14 calls deep: the outermost callers are cut to the last 12.
    assert.match(h, /depth 14: … › .* › inner › forward › layer\\_norm/);
    assert.match(h, /scope: inference/);
    assert.match(h, /duration 5 µs/);
    const k = hoverAt(doc, text.indexOf('"name": "transformer.h.0.attn.c_attn"', text.indexOf('"gpu_kernel"')))!.markdown;
    assert.match(k, /stream 0/);
    assert.doesNotMatch(k, /NaN/);
  });
});
