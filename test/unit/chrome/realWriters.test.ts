// Chrome traces as the real tools write them (test/fixtures/real, generated from each writer's
// source: see its README): PyTorch's Kineto writes each ac2g `f` before its `s`, JAX ends its events
// with `{}`, Proton names CTAs and warps with strings. Checked and drawn as Chrome and Perfetto read them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { ChromeChecker } from '../../../core/chrome/checks';
import { FlowPairs, MAX_FLOW_STEPS } from '../../../core/chrome/flows';
import type { Diagnostic } from '../../../core/common/diagnostic';
import { ChromeTimelineBuilder } from '../../../core/chrome/timeline';
import type { TimelineModel } from '../../../core/timeline/model';
import { jaxPerfettoTrace } from '../../gen/jaxGen';
import { kinetoCompiledTrace, kinetoEagerTrace, kinetoLegacyTrace } from '../../gen/kinetoGen';
import { protonTrace } from '../../gen/protonGen';
import { REAL_FILES } from '../../gen/writeRealFixtures';

const read = (f: string) => (f.endsWith('.gz') ? gunzipSync(readFileSync(f)).toString('utf8') : readFileSync(f, 'utf8'));

function check(text: string): Diagnostic[] {
  const c = new ChromeChecker();
  text.split('\n').forEach((l, i) => c.add(l, i));
  return c.finish();
}

function model(text: string): TimelineModel {
  const b = new ChromeTimelineBuilder();
  text.split('\n').forEach((l, i) => b.addLine(l, i));
  return b.finish();
}

/** The flow event (its id and ph) a diagnostic points at, read from the file's lines. */
function flowAt(lines: string[], d: Diagnostic): string {
  const l = lines[d.range.start.line];
  return `${/"ph": "(\w)"/.exec(l)?.[1]} ${/"id": (\d+)/.exec(l)?.[1]}`;
}

describe('Chrome traces as the real writers write them', () => {
  it('the committed fixtures are what their generators write', () => {
    assert.equal(read(REAL_FILES.eager), kinetoEagerTrace().text);
    assert.equal(read(REAL_FILES.compiled), kinetoCompiledTrace().text);
    assert.equal(read(REAL_FILES.legacy), kinetoLegacyTrace().text);
    assert.equal(read(REAL_FILES.jax), jaxPerfettoTrace().text);
    assert.equal(read(REAL_FILES.proton), protonTrace().text);
  });

  for (const [name, file, gen] of [['eager', REAL_FILES.eager, kinetoEagerTrace], ['torch.compile', REAL_FILES.compiled, kinetoCompiledTrace]] as const) {
    it(`PyTorch 2.x ${name}: each f before its s pairs; only the flows the profiling window cut are warned`, () => {
      const text = read(file);
      const lines = text.split('\n');
      const g = gen();
      // Kineto's layout: the flow end comes first in the file.
      const firstF = text.indexOf('"ph": "f", "id": 3,'), firstS = text.indexOf('"ph": "s", "id": 3,');
      assert.ok(firstF > 0 && firstS > firstF);
      const d = check(text);
      assert.deepEqual(d.map((x) => `${x.severity} ${x.code}`), Array(g.cutFlowEvents).fill('warning chrome.unpaired-flow'));
      for (const x of d) {
        assert.match(x.message, /profiling window cut it/);
        assert.equal(lines[x.range.start.line].slice(x.range.start.character, x.range.end.character), /"ph": "f"/.test(lines[x.range.start.line]) ? '"f"' : '"s"');
      }
      // The cut ones: kernels at the window's start (f alone), launches at its end (s alone).
      const at = d.map((x) => flowAt(lines, x));
      assert.ok(at.some((s) => s.startsWith('f ')) && at.some((s) => s.startsWith('s ')));
    });

    it(`PyTorch 2.x ${name}: the timeline draws every paired flow as an arrow, launch → the kernel it launched`, () => {
      const text = read(file);
      const m = model(text);
      const g = gen();
      assert.equal(m.links?.from.length, g.pairedFlows);
      const lines = text.split('\n');
      const corr = (i: number) => /"correlation": (\d+)/.exec(lines.slice(m.items.line[i], m.items.line[i] + 8).join('\n'))?.[1];
      let ac2g = 0;
      for (let k = 0; k < m.links!.from.length; k++) {
        const from: number = m.links!.from[k], to: number = m.links!.to[k];
        const fromName: string = m.strings[m.items.name[from]];
        if (fromName === 'aten::addmm') continue; // fwdbwd: forward op → its backward
        ac2g++;
        assert.match(fromName, /^(cudaLaunchKernel|cuLaunchKernel|cudaMemcpyAsync|cudaMemsetAsync)$/);
        assert.equal(corr(from), corr(to), `${fromName} → ${m.strings[m.items.name[to]]}`);
      }
      assert.ok(ac2g > 0);
    });
  }

  it('Kineto of 2021 (whole µs, each f before its s, no flow cut): no diagnostic, every flow an arrow', () => {
    const text = read(REAL_FILES.legacy);
    assert.ok(text.startsWith('\n{\n  "schemaVersion": 1,'));
    assert.ok(text.indexOf('"ph": "f", "id": 1,') < text.indexOf('"ph": "s", "id": 1,'));
    assert.deepEqual(check(text), []);
    assert.equal(model(text).links?.from.length, kinetoLegacyTrace().pairedFlows);
  });

  it('JAX perfetto_trace.json.gz: the closing {} is nothing, no diagnostic, no item; the events are drawn', () => {
    const text = read(REAL_FILES.jax);
    assert.match(text, /, \{\}\]\}$/);
    assert.deepEqual(check(text), []);
    const m = model(text);
    assert.equal(m.items.start.length, jaxPerfettoTrace().slices);
    assert.equal(m.undrawable, 0);
    assert.deepEqual(m.tracks.filter((t) => t.kind === 'group').map((t) => t.name), ['/device:GPU:0', '/host:CPU']);
  });

  it('Triton Proton: CTAs are processes and warps threads, named as written, in natural order; no diagnostic', () => {
    const text = read(REAL_FILES.proton);
    const g = protonTrace();
    assert.equal(text.split('\n').length, 2);
    assert.deepEqual(check(text), []);
    const m = model(text);
    assert.equal(m.items.start.length, g.slices);
    const groups = m.tracks.filter((t) => t.kind === 'group').map((t) => t.name);
    assert.deepEqual([...groups].sort(), [...g.ctas].sort());
    // By SM, then CTA as a number: CTA3 before CTA11 on Core1.
    const core1 = groups.filter((n) => n.includes(' Core1 '));
    assert.deepEqual(core1, ['matmul_kernel Core1 CTA3', 'matmul_kernel Core1 CTA11']);
    const first = m.tracks.findIndex((t) => t.name === 'matmul_kernel Core0 CTA0');
    const threads = m.tracks.slice(first + 1).filter((t) => t.kind !== 'group').slice(0, g.warps.length).map((t) => t.name);
    assert.deepEqual(threads, ['warp 0 (line 0)', 'warp 0 (line 1)', 'warp 1 (line 0)', 'warp 1 (line 1)', 'warp 2 (line 0)', 'warp 3 (line 0)']);
    assert.equal(m.links?.from.length, g.flows);
  });
});

describe('Flow pairing by time over the whole file', () => {
  const x = (ph: string, ts: number, extra = '') => `{"ph":"${ph}","cat":"ac2g","name":"ac2g","id":1,"pid":1,"tid":1,"ts":${ts}${extra}}`;
  const codes = (t: string) => check(t).map((d) => `${d.range.start.line} ${d.code}`).sort();

  it('pairs an f written before its s when the s is earlier in time', () => {
    assert.deepEqual(codes(`[${x('f', 20, ',"bp":"e"')},\n${x('s', 10)}]`), []);
  });

  it('warns on an f earlier in time than every s of its flow, and on the s then left alone', () => {
    assert.deepEqual(codes(`[${x('s', 30)},\n${x('f', 20, ',"bp":"e"')}]`), ['0 chrome.unpaired-flow', '1 chrome.unpaired-flow']);
  });

  it('pairs bind_id slices whose flow_in comes first in the file (JAX writes devices before the host)', () => {
    const b = (ts: number, io: string) => `{"ph":"X","name":"k","pid":1,"tid":1,"ts":${ts},"dur":1,"bind_id":5,"${io}":true}`;
    assert.deepEqual(codes(`[${b(50, 'flow_in')},\n${b(10, 'flow_out')}]`), []);
  });

  it('keeps one s fanning out to several f, and a reused id as a new flow', () => {
    assert.deepEqual(codes(`[${x('f', 20)},\n${x('s', 10)},\n${x('f', 25)},\n${x('s', 40)},\n${x('f', 45)}]`), []);
    assert.deepEqual(codes(`[${x('s', 10)},\n${x('f', 20)},\n${x('s', 40)}]`), ['2 chrome.unpaired-flow']);
  });

  it('stops recording a flow past its cap of events (one id repeated cannot grow it) and then says nothing of it', () => {
    const p = new FlowPairs();
    const r = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    for (let k = 0; k < MAX_FLOW_STEPS * 3; k++) p.add('k', 'end', k + 10, r);
    // Its start, earlier in time, comes after the cap: the kept ends would look alone; none is warned.
    p.add('k', 'start', 0, r);
    p.add('other', 'end', 5, r);
    assert.deepEqual(p.orphans().map((o) => o.key), ['other']);
  });

  it('reads an empty event as nothing: no diagnostic, no item', () => {
    const t = '[{},{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},{}]';
    assert.deepEqual(check(t), []);
    const m = model(t);
    assert.equal(m.items.start.length, 1);
    assert.equal(m.undrawable, 0);
  });
});
