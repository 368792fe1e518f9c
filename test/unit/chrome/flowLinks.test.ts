// Flows of Chrome traces as links of the timeline model: PyTorch `ac2g` launch → kernel, t steps,
// fan-out, bind_id slices, the binding rules, and the caps.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTimeline } from '../../../core/detectFormat';
import type { TimelineModel } from '../../../core/timeline/model';
import { validModel } from '../../../protocol/timeline';
import { pytorchTrace } from '../../gen/chromeGen';

const FIX = join(__dirname, '..', '..', 'fixtures', 'chrome');

/** Every link as "from-name@from-start -> to-name@to-start", in model order. */
function arrows(m: TimelineModel): string[] {
  const L = m.links;
  if (!L) return [];
  const it = m.items, name = (i: number) => `${m.strings[it.name[i]]}@${it.start[i]}`;
  return Array.from(L.from, (f, k) => `${name(f)} -> ${name(L.to[k])}`);
}

const build = (events: object[]) => buildTimeline('x.trace.json', [JSON.stringify({ traceEvents: events })])!;

describe('Chrome flows as timeline links', () => {
  it('links each cudaLaunchKernel to the kernel it launched in the PyTorch fixture (ac2g s → f with bp e)', () => {
    const text = readFileSync(join(FIX, 'pytorch.pt.trace.json'), 'utf8');
    const m = buildTimeline('run.pt.trace.json', text.split('\n'))!;
    assert.ok(m.links);
    assert.equal(m.links.from.length, 12);
    const it = m.items;
    const lines = text.split('\n');
    for (let k = 0; k < 12; k++) {
      const f: number = m.links.from[k], t: number = m.links.to[k];
      assert.equal(m.strings[it.name[f]], 'cudaLaunchKernel');
      assert.match(m.strings[it.name[t]], /^ampere_sgemm/);
      // The launch and the kernel share their correlation id: the link joined the right pair.
      const corr = (i: number) => (JSON.parse(lines[it.line[i]].replace(/,\s*$/, '')) as { args: { correlation: number } }).args.correlation;
      assert.equal(corr(f), corr(t));
    }
  });

  it('links every launch of the generated PyTorch-shaped trace to its kernel by correlation', () => {
    const text = pytorchTrace();
    const lines = text.split('\n');
    const m = buildTimeline('run.pt.trace.json', lines)!;
    const launches = lines.filter((l) => l.includes('"ph":"s"') || l.includes('"ph": "s"')).length;
    assert.ok(launches > 0);
    assert.equal(m.links?.from.length, launches);
    const it = m.items;
    const corr = (i: number) => (JSON.parse(lines[it.line[i]].replace(/,\s*$/, '')) as { args?: { correlation?: number } }).args?.correlation;
    for (let k = 0; k < launches; k++) assert.equal(corr(m.links!.from[k]), corr(m.links!.to[k]));
  });

  it('binds an s to the innermost slice open at its time, an f without bp to the next slice, and chains t steps', () => {
    const m = build([
      { ph: 'X', name: 'op', pid: 1, tid: 1, ts: 0, dur: 100 },
      { ph: 'X', name: 'launch', pid: 1, tid: 1, ts: 10, dur: 5 },
      { ph: 's', cat: 'c', id: 1, pid: 1, tid: 1, ts: 12 },
      { ph: 't', cat: 'c', id: 1, pid: 1, tid: 2, ts: 20 },
      { ph: 'f', cat: 'c', id: 1, pid: 1, tid: 3, ts: 25 },
      // Files need not be sorted: the slices a flow binds to may come after it.
      { ph: 'X', name: 'step', pid: 1, tid: 2, ts: 18, dur: 4 },
      { ph: 'X', name: 'before', pid: 1, tid: 3, ts: 20, dur: 10 },
      { ph: 'X', name: 'next', pid: 1, tid: 3, ts: 31, dur: 3 },
    ]);
    assert.deepEqual(arrows(m), ['launch@10 -> step@18', 'step@18 -> next@31']);
  });

  it('of slices starting together, binds an s to the shorter (the child) and an f without bp to the longer, whatever their file order', () => {
    const m = build([
      { ph: 'X', name: 'child', pid: 1, tid: 1, ts: 0, dur: 4 },
      { ph: 'X', name: 'parent', pid: 1, tid: 1, ts: 0, dur: 10 },
      { ph: 's', cat: 'c', id: 1, pid: 1, tid: 1, ts: 2 },
      { ph: 'X', name: 'kchild', pid: 1, tid: 2, ts: 5, dur: 1 },
      { ph: 'X', name: 'kparent', pid: 1, tid: 2, ts: 5, dur: 3 },
      { ph: 'f', cat: 'c', id: 1, pid: 1, tid: 2, ts: 4 },
    ]);
    assert.deepEqual(arrows(m), ['child@0 -> kparent@5']);
  });

  it('fans one s out to many f, and a reused id starts a new flow', () => {
    const m = build([
      { ph: 'X', name: 'a', pid: 1, tid: 1, ts: 0, dur: 5 },
      { ph: 's', cat: 'c', id: 7, pid: 1, tid: 1, ts: 1 },
      { ph: 'X', name: 'b', pid: 1, tid: 2, ts: 10, dur: 5 },
      { ph: 'f', cat: 'c', id: 7, pid: 1, tid: 2, ts: 11, bp: 'e' },
      { ph: 'X', name: 'c', pid: 1, tid: 3, ts: 12, dur: 5 },
      { ph: 'f', cat: 'c', id: 7, pid: 1, tid: 3, ts: 13, bp: 'e' },
      { ph: 'X', name: 'd', pid: 1, tid: 1, ts: 20, dur: 5 },
      { ph: 's', cat: 'c', id: 7, pid: 1, tid: 1, ts: 21 },
      { ph: 'X', name: 'e', pid: 1, tid: 2, ts: 30, dur: 5 },
      { ph: 'f', cat: 'c', id: 7, pid: 1, tid: 2, ts: 31, bp: 'e' },
      // Another category with the same id is another flow, and an end with no start draws nothing.
      { ph: 'f', cat: 'other', id: 7, pid: 1, tid: 2, ts: 32, bp: 'e' },
    ]);
    assert.deepEqual(arrows(m), ['a@0 -> b@10', 'a@0 -> c@12', 'd@20 -> e@30']);
  });

  it('orders a flow by time when its events are not in file order, and reads id 7 and "7" (pid too) as one', () => {
    const m = build([
      { ph: 'f', cat: 'c', id: '7', pid: '1', tid: 2, ts: 11, bp: 'e' },
      { ph: 'X', name: 'b', pid: 1, tid: 2, ts: 10, dur: 5 },
      { ph: 'X', name: 'a', pid: 1, tid: 1, ts: 0, dur: 5 },
      { ph: 's', cat: 'c', id: 7, pid: 1, tid: 1, ts: 1 },
      { ph: 's', cat: 'c', id: '07', pid: 1, tid: 1, ts: 2 },
    ]);
    assert.deepEqual(arrows(m), ['a@0 -> b@10']);
  });

  it('links slices of the newer form: bind_id with flow_out and flow_in', () => {
    const m = build([
      { ph: 'X', name: 'producer', pid: 1, tid: 1, ts: 0, dur: 5, bind_id: 'q', flow_out: true },
      { ph: 'X', name: 'relay', pid: 1, tid: 2, ts: 6, dur: 5, bind_id: 'q', flow_in: true, flow_out: true },
      { ph: 'X', name: 'consumer', pid: 2, tid: 1, ts: 12, dur: 5, bind_id: 'q', flow_in: true },
    ]);
    assert.deepEqual(arrows(m), ['producer@0 -> relay@6', 'relay@6 -> consumer@12']);
  });

  it('keeps a flow joined when its id was first seen out of the id array\'s reach and the array grew past it later', () => {
    // Flow ids are looked up in an array while they stay small against the flows seen, else in a Map:
    // id 9000 comes first (Map), then 3000 flows grow the array past 9000, then 9000's end comes.
    const events: object[] = [
      { ph: 'X', name: 'far', pid: 1, tid: 1, ts: 0, dur: 5 },
      { ph: 's', cat: 'c', id: 9000, pid: 1, tid: 1, ts: 1 },
    ];
    for (let k = 0; k < 3000; k++) events.push({ ph: 's', cat: 'c', id: k * 3, pid: 1, tid: 1, ts: 1 });
    events.push({ ph: 'X', name: 'end', pid: 1, tid: 2, ts: 10, dur: 5 }, { ph: 'f', cat: 'c', id: '9000', pid: 1, tid: 2, ts: 11, bp: 'e' });
    assert.deepEqual(arrows(build(events)), ['far@0 -> end@10']);
  });

  it('has no links when the trace has no flows, and draws none for flows on threads without slices', () => {
    assert.equal(build([{ ph: 'X', name: 'a', pid: 1, tid: 1, ts: 0, dur: 5 }]).links, undefined);
    const m = build([
      { ph: 's', cat: 'c', id: 1, pid: 1, tid: 9, ts: 1 },
      { ph: 'X', name: 'b', pid: 1, tid: 2, ts: 0, dur: 5 },
      { ph: 'f', cat: 'c', id: 1, pid: 1, tid: 2, ts: 2, bp: 'e' },
    ]);
    assert.equal(m.links, undefined);
    // Flow events make no thread tracks of their own.
    assert.deepEqual(m.tracks.map((t) => t.name), ['Process 1', 'Thread 2']);
  });
});

describe('links through the webview message check', () => {
  it('accepts a model with links and rejects one whose link points past the items', () => {
    const m = buildTimeline('run.pt.trace.json', readFileSync(join(FIX, 'pytorch.pt.trace.json'), 'utf8').split('\n'))!;
    assert.ok(validModel(m));
    const bad = { ...m, links: { from: Uint32Array.from([0]), to: Uint32Array.from([m.items.start.length]) } };
    assert.equal(validModel(bad), false);
    assert.equal(validModel({ ...m, links: { from: new Uint32Array(2), to: new Uint32Array(1) } }), false);
  });

  it('accepts the flows\' categories and names (string indices, one per link) and rejects them out of range or short', () => {
    const m = buildTimeline('run.pt.trace.json', readFileSync(join(FIX, 'pytorch.pt.trace.json'), 'utf8').split('\n'))!;
    const L = m.links!;
    assert.ok(L.cat && L.name);
    assert.deepEqual([...new Set(Array.from(L.cat, (c) => m.strings[c]))], ['ac2g']);
    assert.deepEqual([...new Set(Array.from(L.name!, (c) => m.strings[c]))], ['ac2g']);
    assert.equal(validModel({ ...m, links: { ...L, cat: L.cat.map((_, k) => (k ? 0 : m.strings.length)) } }), false);
    assert.equal(validModel({ ...m, links: { ...L, name: L.name.slice(1) } }), false);
    assert.equal(validModel({ ...m, links: { ...L, cat: Array.from(L.cat) as unknown as Uint32Array } }), false);
    const { cat: _c, name: _n, ...bare } = L;
    assert.ok(validModel({ ...m, links: bare }));
  });
});
