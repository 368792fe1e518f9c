// Compare Timelines aligns both runs at a marker (core/diff/markers.ts): per format, the markers a
// timeline model gives must be the points the format's files say (read from the generated files
// themselves, as their writers write them), matched between A and B by key; and the arithmetic of
// an alignment must hold at the magnitudes real files reach.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildTimeline } from '../../../core/detectFormat';
import { groupMarker, lockedView, pairMarkers, sharedRange, timelineMarkers, type Marker } from '../../../core/diff/markers';
import type { MarkerSpec } from '../../../core/diff/types';
import { FORMATS } from '../../../core/formats';
import type { TimelineModel } from '../../../core/timeline/model';
import { nnapiRuns } from '../../gen/diffPairs';
import { PLANTED_PAIR, traceLines } from '../../gen/genTrace';
import { inferscopeTrace, pretty } from '../../gen/inferscopeGen';
import { profilerTrace } from '../../gen/inferscopeProfiler';
import { kinetoEagerTrace } from '../../gen/kinetoGen';
import { kinetoTrainingTrace } from '../../gen/kinetoTraining';

const ROOT = join(__dirname, '../../..');
const specsOf = (id: string): readonly MarkerSpec[] => FORMATS.find((f) => f.id === id)!.diff?.markers ?? [];
const modelOf = (name: string, text: string) => buildTimeline(name, text.split('\n'))!;
const markersOf = (m: TimelineModel) => timelineMarkers(m, specsOf(m.format));
const byList = (ms: Marker[], list: number) => ms.filter((m) => m.list === list).map((m) => [m.key, m.t]);

describe('markers of each format', () => {
  it('NPU traces: the first command (CMD_START) of each layer and of each phase, in time order', () => {
    const lines = [...traceLines({ events: 1e7, commands: 600, seed: 4 })];
    const { markers, capped } = markersOf(modelOf('a.trace.jsonl', lines.join('\n')));
    assert.equal(capped, false);
    // From the file: the earliest CMD_START of each layer_id and phase.
    const first = (attr: 'layer_id' | 'phase') => {
      const at = new Map<string, number>();
      for (const l of lines) {
        if (!l.includes('"CMD_START"')) continue;
        const e = JSON.parse(l) as Record<string, unknown>;
        const k = String(e[attr]);
        if (!at.has(k) || (e.t_cycle as number) < at.get(k)!) at.set(k, e.t_cycle as number);
      }
      return [...at].sort((x, y) => x[1] - y[1]);
    };
    assert.deepEqual(byList(markers, 0), first('layer_id'));
    assert.deepEqual(byList(markers, 1), first('phase'));
    assert.ok(byList(markers, 0).length >= 2 && byList(markers, 1).length >= 5);
  });

  it('Chrome/PyTorch: each ProfilerStep#N at the host annotation, not the GPU copy', () => {
    for (const trace of [kinetoEagerTrace(), kinetoTrainingTrace()]) {
      const { markers } = markersOf(modelOf('x.pt.trace.json', trace.text));
      const events = (JSON.parse(trace.text) as { traceEvents: { name?: string; cat?: string; ts?: number }[] }).traceEvents;
      const host = events.filter((e) => e.name?.startsWith('ProfilerStep#') && e.cat === 'user_annotation').map((e) => [e.name, e.ts]).sort((x, y) => (x[1] as number) - (y[1] as number));
      assert.ok(host.length >= 2, 'the generator writes several steps');
      // The GPU's copies exist and start later: they are not what a step aligns at.
      assert.ok(events.some((e) => e.name?.startsWith('ProfilerStep#') && e.cat === 'gpu_user_annotation'));
      assert.deepEqual(byList(markers, 0), host);
    }
    // Even when the GPU's copy is stamped first (another clock, skewed): the host's annotation.
    const trace = JSON.parse(kinetoEagerTrace().text) as { traceEvents: { name?: string; cat?: string; ts?: number }[] };
    for (const e of trace.traceEvents) if (e.cat === 'gpu_user_annotation' && e.name?.startsWith('ProfilerStep#')) e.ts = 1000;
    const host = trace.traceEvents.filter((e) => e.cat === 'user_annotation' && e.name?.startsWith('ProfilerStep#')).map((e) => [e.name, e.ts]);
    assert.deepEqual(byList(markersOf(modelOf('skew.pt.trace.json', JSON.stringify(trace, null, 1))).markers, 0), host);
  });

  it("InferScope: each scope at its first event, a repeated name numbered; in the Profiler's layout at its scope_enter", () => {
    const trace = inferscopeTrace({ requests: 3 }) as { events: { timestamp_start_us?: number; timestamp_us?: number }[]; relationships: { scopes: { name: string; event_range: [number, number] }[] } };
    const { markers } = markersOf(modelOf('x.inferscope.json', pretty(trace)));
    const seen = new Map<string, number>();
    const want = trace.relationships.scopes.map((s) => {
      const k = (seen.get(s.name) ?? 0) + 1;
      seen.set(s.name, k);
      const times = trace.events.slice(s.event_range[0], s.event_range[1] + 1).map((e) => e.timestamp_start_us ?? e.timestamp_us!);
      return [k === 1 ? s.name : `${s.name} #${k}`, Math.min(...times)] as [string, number];
    }).sort((x, y) => x[1] - y[1]);
    assert.deepEqual(byList(markers, 0).sort((x, y) => (x[1] as number) - (y[1] as number) || String(x[0]).localeCompare(String(y[0]))), want.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0])));
    assert.ok(want.some(([k]) => k === 'preprocess #3'));

    const text = profilerTrace();
    const enters = (JSON.parse(text) as { events: { type: string; name: string; timestamp_us: number }[] }).events.filter((e) => e.type === 'scope_enter');
    const pm = byList(markersOf(modelOf('p.inferscope.json', text)).markers, 0);
    assert.deepEqual(pm.map(([k]) => k), enters.map((e) => e.name));
    pm.forEach(([, t], i) => assert.ok(Math.abs((t as number) - enters[i].timestamp_us) <= 1, `${t} vs ${enters[i].timestamp_us}`));
  });

  it('NNAPI: each run, at its [NN_LA_PO] B row, numbered; a trace without one has none', () => {
    const text = nnapiRuns(3, {}, 20);
    const { markers } = markersOf(modelOf('x.systrace', text));
    const rows = text.split('\n').filter((l) => l.includes('B|100|[NN_LA_PO]')).map((l) => Math.round(Number(/ (\d+\.\d{6}): /.exec(l)![1]) * 1e6));
    assert.equal(rows.length, 20);
    assert.deepEqual(byList(markers, 0), rows.map((t, i) => [String(i + 1), t]));
    const mobilenet = markersOf(modelOf('nnapi-mobilenet.systrace', readFileSync(join(ROOT, 'examples/nnapi-mobilenet.systrace'), 'utf8'))).markers;
    assert.deepEqual(mobilenet.map((m) => m.key), ['1']);
    const noRun = text.split('\n').filter((l) => !l.includes('[NN_LA_PO]') && !/: E$/.test(l)).join('\n');
    assert.deepEqual(markersOf(modelOf('y.systrace', noRun)).markers, []);
  });

  it('kernel-profiler buffers offer none; CMDQ is not compared', () => {
    assert.deepEqual(specsOf('kprof'), []);
    assert.deepEqual(specsOf('cmdq'), []);
  });

  it('at most the cap, the earliest of each list first, said', () => {
    const m = modelOf('a.trace.jsonl', [...traceLines({ events: 1e7, commands: 600, seed: 4 })].join('\n'));
    const all = markersOf(m).markers;
    const few = timelineMarkers(m, specsOf('npu-trace'), 3);
    assert.equal(few.capped, true);
    assert.deepEqual(few.markers, all.slice(0, 3));
  });
});

describe('markers matched between two runs', () => {
  const specs = specsOf('npu-trace');
  const a = [...traceLines(PLANTED_PAIR.base)];
  const b = [...traceLines(PLANTED_PAIR.slower)];
  // B names its LN2 phase otherwise: LN2 only in A, LN2_FUSED only in B.
  const mb = modelOf('b.trace.jsonl', b.join('\n').replace(/"phase":"LN2"/g, '"phase":"LN2_FUSED"'));
  const pairs = pairMarkers(specs, markersOf(modelOf('a.trace.jsonl', a.join('\n'))).markers, markersOf(mb).markers);

  it("by list and key, A's order, a marker one run lacks listed with null", () => {
    const ln2 = pairs.find((p) => p.name === 'phase LN2')!;
    assert.equal(ln2.b, null);
    assert.ok(ln2.a! > 0);
    const fused = pairs.find((p) => p.name === 'phase LN2_FUSED')!;
    assert.equal(fused.a, null);
    // Those only in B close their list.
    assert.equal(pairs.filter((p) => p.list === 1).at(-1), fused);
    const mlp = pairs.find((p) => p.name === 'phase MLP')!;
    assert.ok(mlp.a !== null && mlp.b !== null);
    assert.deepEqual(pairs.map((p) => p.list), [...pairs.map((p) => p.list)].sort());
  });

  it('a layer, phase or step clicked aligns at its own marker; a group one run lacks, or of another kind, at none', () => {
    assert.equal(pairs[groupMarker(specs, pairs, { kind: 'layer', key: '1' })].name, 'layer 1');
    assert.equal(pairs[groupMarker(specs, pairs, { kind: 'phase', key: 'MLP' })].name, 'phase MLP');
    assert.equal(groupMarker(specs, pairs, { kind: 'phase', key: 'LN2' }), -1);
    assert.equal(groupMarker(specs, pairs, { kind: 'cmd_type', key: 'MATMUL' }), -1);
    // A scope only one run has: none (not another scope).
    const is = specsOf('inferscope');
    const sa = markersOf(modelOf('x.inferscope.json', pretty(inferscopeTrace({ requests: 3 })))).markers;
    const sp = pairMarkers(is, sa, sa.filter((m) => m.key !== 'request 1'));
    assert.equal(groupMarker(is, sp, { kind: 'scope', key: 'request 1' }), -1);
    assert.equal(sp[groupMarker(is, sp, { kind: 'scope', key: 'preprocess' })].name, 'scope preprocess');
    // Chrome's one step group holds every ProfilerStep#N: its first.
    const chrome = specsOf('chrome-trace');
    const m = markersOf(modelOf('x.pt.trace.json', kinetoEagerTrace().text)).markers;
    const cp = pairMarkers(chrome, m, m);
    assert.equal(cp[groupMarker(chrome, cp, { kind: 'step', key: 'ProfilerStep' })].name, 'step ProfilerStep#2');
  });
});

describe('the arithmetic of an alignment', () => {
  it('the shared range runs from the earliest start to the latest end relative to the anchors', () => {
    assert.deepEqual(sharedRange([{ t0: 100, t1: 1100, anchor: 300 }, { t0: 5000, t1: 5500, anchor: 5050 }]), { lo: -200, hi: 800 });
    assert.deepEqual(sharedRange([{ t0: 100, t1: 1100, anchor: 100 }, { t0: 5000, t1: 7000, anchor: 5000 }]), { lo: 0, hi: 2000 });
  });

  // Chrome's µs since the epoch (Kineto writes 16 digits and three decimals; a double holds them to
  // a quarter µs) and an NPU simulator's cycles after days of simulated time.
  for (const [what, a, b, ulp] of [['Chrome µs since the epoch', 1_732_000_000_123_456.25, 1_732_000_086_400_000.5, 0.25], ['NPU cycles', 987_654_321_012, 1_234_567_890_123, 2 ** -12]] as const) {
    it(`${what}: the marker stays at one x in both views however the view moves, with no drift`, () => {
      const { lo, hi } = sharedRange([{ t0: a - 5_000_000, t1: a + 90_000_000, anchor: a }, { t0: b - 7_000_000, t1: b + 80_000_000, anchor: b }]);
      // Exact: the differences are taken before any sum.
      assert.equal(lo, -7_000_000);
      assert.equal(hi, 90_000_000);
      let view = { start: a - 1_000, end: a + 1_000.5 };
      let seed = 7;
      for (let k = 0; k < 1000; k++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const dt = (seed / 2 ** 31 - 0.5) * 400.125;
        view = { start: view.start + dt, end: view.end + dt };
        const other = lockedView(view, a, b);
        // Where the marker is in each view, in time from the view's start: at most one rounding apart.
        assert.ok(Math.abs((a - view.start) - (b - other.start)) <= ulp, `${k}: ${a - view.start} vs ${b - other.start}`);
        assert.ok(Math.abs((other.end - other.start) - (view.end - view.start)) <= 2 * ulp);
        // And back: A's view from B's is A's view (no drift when the lock goes the other way).
        const back = lockedView(other, b, a);
        assert.ok(Math.abs(back.start - view.start) <= 2 * ulp);
      }
    });
  }
});
