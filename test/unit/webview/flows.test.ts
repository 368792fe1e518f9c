// The geometry of flow arrows in the timeline (webview/flows.ts): which links are drawn for a view,
// where their ends are, the selected item's arrows, and the level of detail over many flows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTimeline } from '../../../core/detectFormat';
import type { TimelineModel } from '../../../core/timeline/model';
import { flowArrows, flowPartners, MAX_ARROWS, type FlowView } from '../../../webview/flows';
import { layoutBands } from '../../../webview/layout';
import { ModelIndex } from '../../../webview/query';

const FIX = join(__dirname, '..', '..', 'fixtures', 'chrome');

function view(m: TimelineModel, start: number, end: number, over: Partial<FlowView> = {}, collapsed = new Set<number>()): FlowView {
  const width = 1000;
  return {
    model: m, bands: layoutBands(m, collapsed).bands, rowOfItem: new ModelIndex(m).rowOfItem,
    viewport: { start, end, width, scale: width / (end - start) }, scrollY: 0, height: 10_000, selected: -1, passes: () => true,
    // The toolbar's "Flows: all"; the tests of the default (the selection's family) say showAll: false.
    showAll: true,
    ...over,
  };
}

const named = (m: TimelineModel, name: string) => m.items.name.indexOf(m.strings.indexOf(name));

describe('flow arrows', () => {
  // A launch on the CPU thread and the kernel it launched on a GPU stream, in two processes.
  const m = buildTimeline('x.trace.json', [JSON.stringify({ traceEvents: [
    { ph: 'X', name: 'launch', pid: 1, tid: 1, ts: 100, dur: 10 },
    { ph: 's', cat: 'ac2g', id: 1, pid: 1, tid: 1, ts: 100 },
    { ph: 'X', name: 'kernel', pid: 2, tid: 7, ts: 150, dur: 40 },
    { ph: 'f', cat: 'ac2g', id: 1, pid: 2, tid: 7, ts: 150, bp: 'e' },
  ] })])!;
  const launch = named(m, 'launch'), kernel = named(m, 'kernel');

  it('draws an arrow from the source slice to the target slice when both are in the view', () => {
    const v = view(m, 50, 250);
    const { arrows, tooMany } = flowArrows(v);
    assert.equal(tooMany, false);
    assert.equal(arrows.length, 1);
    const bandOf = (i: number) => v.bands.find((b) => b.kind === 'slices' && b.rowFrom <= v.rowOfItem[i] && v.rowOfItem[i] < b.rowTo)!;
    const a = arrows[0];
    assert.equal(a.selected, false);
    assert.equal(a.x0, (100 - 50) * 5);
    assert.equal(a.x1, (150 - 50) * 5);
    assert.equal(a.y0, bandOf(launch).y + bandOf(launch).h / 2);
    assert.equal(a.y1, bandOf(kernel).y + bandOf(kernel).h / 2);
    assert.ok(a.y1 > a.y0, 'the GPU process is below the CPU one');
  });

  it('draws none when one end is out of the view, unless an end is selected (then it leaves the plot)', () => {
    assert.equal(flowArrows(view(m, 120, 250)).arrows.length, 0);
    assert.equal(flowArrows(view(m, 50, 140)).arrows.length, 0);
    const sel = flowArrows(view(m, 120, 250, { selected: kernel })).arrows;
    assert.equal(sel.length, 1);
    assert.equal(sel[0].selected, true);
    assert.ok(sel[0].x0 < 0, 'its source is left of the plot');
    assert.equal(flowArrows(view(m, 120, 250, { selected: launch })).arrows.length, 1);
  });

  it("lists a slice's flow partners for the details pane: the kernel's launch, the launch's kernel", () => {
    assert.deepEqual(flowPartners(m, kernel), { from: [launch], to: [] });
    assert.deepEqual(flowPartners(m, launch), { from: [], to: [kernel] });
  });

  it('draws none to a slice hidden by a filter or in a collapsed process, nor below the visible rows', () => {
    assert.equal(flowArrows(view(m, 50, 250, { passes: (i) => i !== kernel })).arrows.length, 0);
    const gpu = m.tracks.findIndex((t) => t.kind === 'group' && t.name === 'Process 2');
    assert.equal(flowArrows(view(m, 50, 250, {}, new Set([gpu]))).arrows.length, 0);
    assert.equal(flowArrows(view(m, 50, 250, { height: 25 })).arrows.length, 0);
  });

  it('draws the ac2g arrows of the PyTorch fixture zoomed in on one launch, and its kernel is the arrow end', () => {
    const p = buildTimeline('run.pt.trace.json', readFileSync(join(FIX, 'pytorch.pt.trace.json'), 'utf8').split('\n'))!;
    const L = p.links!;
    const from = L.from[0], to = L.to[0];
    const v = view(p, p.items.start[from] - 1, p.items.start[to] + 1);
    const { arrows } = flowArrows(v);
    const a = arrows.find((x) => x.link === 0)!;
    assert.ok(a, 'the first launch → kernel arrow is drawn');
    assert.equal(a.x0, 1 * v.viewport.scale);
    assert.ok(Math.abs(a.x1 - 1000 + v.viewport.scale) < 1e-6, 'the head is at the kernel start');
    // Zoomed out over the whole trace every arrow fits: 12 of them.
    assert.equal(flowArrows(view(p, p.t0, p.t1)).arrows.length, 12);
  });

  it('level of detail: zoomed out over many flows it draws only the selected arrows, zoomed in a few', () => {
    const events: object[] = [];
    const N = 30_000;
    for (let k = 0; k < N; k++) {
      events.push({ ph: 'X', name: 'l', pid: 1, tid: 1, ts: k * 10, dur: 2 }, { ph: 's', cat: 'c', id: k, pid: 1, tid: 1, ts: k * 10 });
      events.push({ ph: 'X', name: 'k', pid: 2, tid: 1, ts: k * 10 + 5, dur: 2 }, { ph: 'f', cat: 'c', id: k, pid: 2, tid: 1, ts: k * 10 + 5, bp: 'e' });
    }
    const big = buildTimeline('x.trace.json', [JSON.stringify({ traceEvents: events })])!;
    assert.equal(big.links!.from.length, N);
    const all = flowArrows(view(big, big.t0, big.t1));
    assert.equal(all.tooMany, true);
    assert.equal(all.arrows.length, 0);
    const sel = flowArrows(view(big, big.t0, big.t1, { selected: big.links!.to[123] }));
    assert.deepEqual(sel.arrows.map((a) => [a.link, a.selected]), [[123, true]]);
    // A view over 3 000 links draws MAX_ARROWS of them and says there are more.
    const mid = flowArrows(view(big, 0, 3000 * 10));
    assert.equal(mid.arrows.length, MAX_ARROWS);
    assert.equal(mid.tooMany, true);
    const few = flowArrows(view(big, 1000, 1100));
    assert.equal(few.tooMany, false);
    assert.equal(few.arrows.length, 10);
  });

  it('by default only the flows of the selection, its ancestors and its descendants: none without a selection', () => {
    // A step slice enclosing two launches (one nested a level deeper), each with its kernel; a third launch outside the step.
    const ev: object[] = [{ ph: 'X', name: 'step', pid: 1, tid: 1, ts: 0, dur: 100 }, { ph: 'X', name: 'op', pid: 1, tid: 1, ts: 40, dur: 30 }];
    const launch = (k: number, ts: number) => ev.push(
      { ph: 'X', name: `launch${k}`, pid: 1, tid: 1, ts, dur: 5 }, { ph: 's', cat: 'ac2g', id: k, pid: 1, tid: 1, ts },
      { ph: 'X', name: `kernel${k}`, pid: 2, tid: 7, ts: ts + 200, dur: 5 }, { ph: 'f', cat: 'ac2g', id: k, pid: 2, tid: 7, ts: ts + 200, bp: 'e' });
    launch(1, 10);
    launch(2, 50);
    launch(3, 150);
    const s = buildTimeline('x.trace.json', [JSON.stringify({ traceEvents: ev })])!;
    const sel = (name: string, over: Partial<FlowView> = {}) => flowArrows(view(s, s.t0, s.t1, { showAll: false, selected: named(s, name), ...over })).arrows
      .map((a) => `${s.strings[s.items.name[s.links!.from[a.link]]]}${a.selected ? '*' : ''}`).sort();
    assert.deepEqual(flowArrows(view(s, s.t0, s.t1, { showAll: false })).arrows, []);
    assert.deepEqual(flowArrows(view(s, s.t0, s.t1)).arrows.length, 3, 'all: every flow in view');
    // The step: its descendants' flows (launch 2 is two levels down), not launch 3's.
    assert.deepEqual(sel('step'), ['launch1', 'launch2']);
    // A launch: its own flow in bold; its ancestors have none.
    assert.deepEqual(sel('launch2'), ['launch2*']);
    // The op enclosing launch 2: launch 2's flow; the kernel: its own.
    assert.deepEqual(sel('op'), ['launch2']);
    assert.deepEqual(sel('kernel3'), ['launch3*']);
  });
});
