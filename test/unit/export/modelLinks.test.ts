// The model's own links (a Chrome trace's flows) are exported as flows too: Chrome → model →
// Chrome → model gives the same arrows between the same slices, with their categories and names,
// and a pair the id links give as well is written once.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ChromeChecker } from '../../../core/chrome/checks';
import { ChromeTraceExporter } from '../../../core/export/chromeTrace';
import { flowSources } from '../../../core/export/links';
import { buildTimeline } from '../../../core/detectFormat';
import type { TimelineModel } from '../../../core/timeline/model';
import { pytorchFlowsTrace, pytorchTrace } from '../../gen/chromeGen';
import { HOSTILE_VALUES } from '../common/hostileValues';
import { arrowsOf, bindings, type Ev } from './perfetto';

const ROOT = join(__dirname, '..', '..', '..');

function exportText(m: TimelineModel, lines: string[]): string {
  const e = new ChromeTraceExporter(m);
  let text = e.head();
  lines.forEach((l, i) => (text += e.line(l, i)));
  return text + e.tail();
}

function roundTrip(text: string): { before: TimelineModel; after: TimelineModel; out: string } {
  const lines = text.split('\n');
  const before = buildTimeline('run.pt.trace.json', lines)!;
  const out = exportText(before, lines);
  return { before, after: buildTimeline('back.trace.json', out.split('\n'))!, out };
}

describe('Chrome → Chrome export keeps the flows', () => {
  it('the PyTorch-shaped trace: the same arrows (fan-out, another pid, f without bp, t chain) with their cat and name', () => {
    const { before, after, out } = roundTrip(pytorchFlowsTrace());
    const arrows = arrowsOf(before);
    assert.deepEqual(arrowsOf(after), arrows);
    // The source as the importer reads it, so a change there shows here rather than passing unseen.
    assert.deepEqual(arrows, [
      'python3 / thread 1234 (python3): cudaLaunchKernel@10 → GPU 0 / stream 7: ampere_sgemm_a@30 [ac2g/ac2g]',
      'python3 / thread 1234 (python3): cudaLaunchKernel@40 → GPU 0 / stream 7: ampere_sgemm_c@80 [ac2g/ac2g]',
      'python3 / thread 1234 (python3): cudaLaunchKernel@40 → GPU 0 / stream 8: ampere_sgemm_b@60 [ac2g/ac2g]',
      'python3 / thread 1234 (python3): cudaMemcpyAsync@60 → GPU 0 / stream 9: Memcpy HtoD@72 [ac2g/ac2g]',
      'python3 / thread 1234 (python3): aten::linear@5 → python3 / thread 1240 (pt_autograd_0): aten::mm_backward@120 [fwdbwd/fwdbwd]',
      'python3 / thread 1240 (pt_autograd_0): aten::mm_backward@120 → python3 / thread 1234 (python3): aten::sum@160 [fwdbwd/fwdbwd]',
    ].sort());
    // Each arrow its own s/f pair, bound by Perfetto's rules to the slices the model links.
    const evs = (JSON.parse(out) as { traceEvents: Ev[] }).traceEvents;
    const starts = evs.filter((e) => e.ph === 's');
    assert.equal(starts.length, 6);
    assert.equal(new Set(starts.map((s) => s.id)).size, 6);
    const bound = bindings(evs);
    const L = before.links!;
    const want = new Set(Array.from(L.from, (f, k) => `${before.strings[before.items.name[f]]}@${before.items.start[f]} → ${before.strings[before.items.name[L.to[k]]]}@${before.items.start[L.to[k]]}`));
    for (const s of starts) {
      const f = evs.filter((e) => e.ph === 'f' && e.id === s.id);
      assert.equal(f.length, 1);
      assert.equal(f[0].bp, 'e');
      assert.equal(f[0].cat, s.cat);
      const a = bound.get(s), b = bound.get(f[0]);
      assert.ok(a && b, `flow ${s.id} binds to no slice`);
      assert.ok(want.has(`${a.name}@${a.ts} → ${b.name}@${b.ts}`), `flow ${s.id}: ${a.name} → ${b.name}`);
    }
    const c = new ChromeChecker();
    out.split('\n').forEach((l, i) => c.add(l, i));
    assert.deepEqual(c.finish().map((d) => d.code), []);
  });

  it('the generated PyTorch trace: every ac2g launch → kernel arrow comes back', () => {
    const { before, after } = roundTrip(pytorchTrace(4));
    assert.equal(before.links!.from.length, 4 * 2 * 2);
    assert.deepEqual(arrowsOf(after), arrowsOf(before));
  });

  it('the PyTorch fixture too', () => {
    const { before, after } = roundTrip(readFileSync(join(ROOT, 'test/fixtures/chrome/pytorch.pt.trace.json'), 'utf8'));
    assert.equal(before.links!.from.length, 12);
    assert.deepEqual(arrowsOf(after), arrowsOf(before));
  });

  it('a link without category or name is written under the id links\' naming', () => {
    const lines = pytorchFlowsTrace().split('\n');
    const m = buildTimeline('run.pt.trace.json', lines)!;
    const { cat: _c, name: _n, ...bare } = m.links!;
    const evs = (JSON.parse(exportText({ ...m, links: bare }, lines)) as { traceEvents: Ev[] }).traceEvents;
    const flows = evs.filter((e) => e.ph === 's' || e.ph === 'f');
    assert.equal(flows.length, 12);
    assert.deepEqual([...new Set(flows.map((e) => `${e.cat}/${e.name}`))], ['link/slice → slice']);
  });
});

describe('where the flow events go', () => {
  it('binds an arrow to a parent whose child starts with it: the s goes after the children that cover its start', () => {
    // The op and its first child start together; the flow leaves the op after the children (two
    // back to back), and enters the kernel whose child starts with it too.
    const ev = [
      { ph: 'X', name: 'op', pid: 1, tid: 1, ts: 0, dur: 20 },
      { ph: 'X', name: 'child', pid: 1, tid: 1, ts: 0, dur: 5 },
      { ph: 'X', name: 'grandchild', pid: 1, tid: 1, ts: 0, dur: 2 },
      { ph: 'X', name: 'sibling', pid: 1, tid: 1, ts: 5, dur: 6 },
      { ph: 's', cat: 'c', name: 'c', id: 1, pid: 1, tid: 1, ts: 15 },
      { ph: 'X', name: 'kernel', pid: 2, tid: 1, ts: 30, dur: 10 },
      { ph: 'X', name: 'part', pid: 2, tid: 1, ts: 30, dur: 4 },
      { ph: 'f', cat: 'c', name: 'c', id: 1, pid: 2, tid: 1, ts: 36, bp: 'e' },
    ];
    const { before, after, out } = roundTrip(JSON.stringify({ traceEvents: ev }, null, 1));
    assert.deepEqual(arrowsOf(before), ['Process 1 / Thread 1: op@0 → Process 2 / Thread 1: kernel@30 [c/c]']);
    assert.deepEqual(arrowsOf(after), arrowsOf(before));
    const evs = (JSON.parse(out) as { traceEvents: Ev[] }).traceEvents;
    const s = evs.find((e) => e.ph === 's')!, f = evs.find((e) => e.ph === 'f')!;
    assert.equal(s.ts, 11.001);
    assert.equal(f.ts, 34.001);
    const bound = bindings(evs);
    assert.equal(bound.get(s)!.name, 'op');
    assert.equal(bound.get(f)!.name, 'kernel');
  });
});

describe('a flow\'s category and name are file text', () => {
  it('are written JSON-escaped and read back as they were (quotes, backslashes, line breaks, U+2028)', () => {
    const names = [...HOSTILE_VALUES, 'q"uote\\back', 'line\u2028sep\u0000nul'];
    const ev: object[] = [];
    names.forEach((n, k) => {
      const ts = k * 100;
      ev.push({ ph: 'X', name: 'op', pid: 1, tid: 1, ts, dur: 10 }, { ph: 's', cat: n, name: `${n}!`, id: k, pid: 1, tid: 1, ts: ts + 1 });
      ev.push({ ph: 'X', name: 'k', pid: 2, tid: 1, ts: ts + 20, dur: 10 }, { ph: 'f', bp: 'e', cat: n, name: `${n}!`, id: k, pid: 2, tid: 1, ts: ts + 21 });
    });
    const { before, after, out } = roundTrip(JSON.stringify({ traceEvents: ev }, null, 1));
    assert.equal(before.links!.from.length, names.length);
    assert.deepEqual(arrowsOf(after), arrowsOf(before));
    const flows = (JSON.parse(out) as { traceEvents: Ev[] }).traceEvents.filter((e) => e.ph === 's');
    assert.deepEqual(flows.map((e) => `${e.cat}|${e.name}`).sort(), names.map((n) => `${n}|${n}!`).sort());
  });
});

describe('id links and model links together', () => {
  it('a pair both give is one arrow, named by the model; the others are all written', () => {
    const file = 'examples/llm-layer.trace.jsonl';
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    const m = buildTimeline(file, lines)!;
    const source = flowSources(m);
    const ids = [...source].map((s, i) => [s, i]).filter(([s]) => s >= 0);
    const [dupFrom, dupTo] = ids[0];
    // A new pair too: the first two items that no id link joins.
    const newFrom = 0, newTo = [...source].findIndex((s, i) => i > 0 && s !== 0);
    const cat = m.strings.length, name = cat + 1;
    const withLinks: TimelineModel = {
      ...m, strings: [...m.strings, 'launch', 'my "flow"'],
      links: { from: Uint32Array.of(dupFrom, newFrom), to: Uint32Array.of(dupTo, newTo), cat: Uint32Array.of(cat, cat), name: Uint32Array.of(name, name) },
    };
    const evs = (JSON.parse(exportText(withLinks, lines)) as { traceEvents: Ev[] }).traceEvents;
    const starts = evs.filter((e) => e.ph === 's');
    assert.equal(starts.length, ids.length + 1);
    assert.equal(new Set(starts.map((s) => s.id)).size, starts.length);
    const named = starts.filter((s) => s.cat === 'launch');
    assert.equal(named.length, 2);
    assert.ok(named.every((s) => s.name === 'my "flow"'));
    // Bound where the links say (each id link's target is an item the model holds once).
    const bound = bindings(evs);
    const ends = named.map((s) => bound.get(evs.find((e) => e.ph === 'f' && e.id === s.id)!)!);
    assert.deepEqual(ends.map((x) => `${x.name}@${(x.args as { line: number }).line}`).sort(),
      [dupTo, newTo].map((i) => `${m.strings[m.items.name[i]]}@${m.items.line[i] + 1}`).sort());
  });
});
