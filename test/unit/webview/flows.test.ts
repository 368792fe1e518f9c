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
});
