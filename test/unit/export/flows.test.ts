// The exported id links (cmd → job → TE/VE, cmd → DMA → DRAM/NoC) bind to the right slices as
// Perfetto binds flow events, and read back through the importer as paired flows.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ChromeChecker } from '../../../core/chrome/checks';
import { ChromeTraceExporter } from '../../../core/export/chromeTrace';
import { flowSources } from '../../../core/export/links';
import { buildTimeline } from '../../../core/detectFormat';
import { bindings, type Ev } from './perfetto';

const ROOT = join(__dirname, '..', '..', '..');

function exported(file: string): { text: string; evs: Ev[]; arrows: number } {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const m = buildTimeline(file, lines)!;
  const e = new ChromeTraceExporter(m);
  let text = e.head();
  lines.forEach((l, i) => (text += e.line(l, i)));
  text += e.tail();
  return { text, evs: (JSON.parse(text) as { traceEvents: Ev[] }).traceEvents, arrows: [...flowSources(m)].filter((s) => s >= 0).length };
}

const cmdOf = (x: Ev) => x.args?.event?.cmd_id;

test('every arrow is its own s/f pair, bound to the linked slices as Perfetto binds them', () => {
  const { evs, arrows } = exported('examples/llm-layer.trace.jsonl');
  const starts = evs.filter((e) => e.ph === 's');
  assert.ok(arrows > 50);
  assert.equal(starts.length, arrows);
  assert.equal(new Set(starts.map((s) => s.id)).size, arrows, 'one id per arrow');
  const bound = bindings(evs);
  const kinds = new Set<string>();
  for (const s of starts) {
    const ends = evs.filter((e) => e.ph === 'f' && e.id === s.id && e.cat === s.cat && e.name === s.name);
    assert.equal(ends.length, 1, `arrow ${s.id}`);
    assert.equal(ends[0].bp, 'e');
    const from = bound.get(s), to = bound.get(ends[0]);
    assert.ok(from && to, `arrow ${s.id} ${s.name} binds to no slice`);
    assert.equal(`${from.cat} → ${to.cat}`, s.name, `arrow ${s.id} binds ${from.name} → ${to.name}`);
    kinds.add(s.name);
    // The slices are the linked ones: the target belongs to the source's command, job or transfer.
    if (from.cat === 'command') assert.equal(cmdOf(to), from.args!.id, `${s.name} ${s.id}`);
    else assert.equal(to.args!.id, from.args!.id, `${s.name} ${s.id}`);
  }
  assert.deepEqual([...kinds].sort(), ['DMA → DRAM', 'DMA → NoC', 'command → DMA', 'command → job', 'job → TE', 'job → VE'].filter((k) => kinds.has(k)).sort());
  assert.ok(kinds.has('command → job') && kinds.has('job → TE'));
});

test('round trip: the exported flows read back paired, with no flow diagnostic', () => {
  const { text } = exported('examples/llm-layer.trace.jsonl');
  const c = new ChromeChecker();
  text.split('\n').forEach((l, i) => c.add(l, i));
  const codes = c.finish().map((d) => d.code);
  assert.deepEqual(codes.filter((k) => k.includes('flow')), []);
  assert.deepEqual(codes, []);
});
