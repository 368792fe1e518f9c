// Chrome → model → Chrome export → model keeps every arrow: random nested slices on a few threads
// and random flows (s/t/f, bp "e" or not, fan-out, bind_id slices), in any file order. Some arrows
// cannot be written as flow events a reader binds to their slices — an end on a slice its children
// cover throughout (no moment has it innermost), a target that ends before its source first is
// innermost (an f before its s is no flow) — so inputs holding one are left out, found by brute
// force over every moment between two slice boundaries. Every other arrow comes back between the
// same slices, with its category and name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ChromeTraceExporter } from '../../core/export/chromeTrace';
import { buildTimeline } from '../../core/detectFormat';
import type { TimelineModel } from '../../core/timeline/model';
import { sliceOf } from '../unit/export/perfetto';

type Ev = Record<string, unknown>;

const thread = fc.record({ pid: fc.constantFrom(1, 2), tid: fc.constantFrom(1, 2) });
const slice = fc.record({ t: thread, ts: fc.integer({ min: 0, max: 30 }), dur: fc.integer({ min: 1, max: 20 }), name: fc.constantFrom('x', 'y') })
  .map(({ t, ts, dur, name }) => ({ ph: 'X', name, ...t, ts, dur }) as Ev);
const flow = fc.record({
  t: thread, ts: fc.integer({ min: 0, max: 35 }), ph: fc.constantFrom('s', 's', 't', 'f', 'f'), bp: fc.boolean(),
  cat: fc.constantFrom('ac2g', 'ac2g', 'fwdbwd'), id: fc.constantFrom(1, 2, 3),
}).map(({ t, ts, ph, bp, cat, id }) => ({ ph, cat, name: cat, id, ...t, ts, ...(ph === 'f' && bp && { bp: 'e' }) }) as Ev);
const bound = fc.record({ t: thread, ts: fc.integer({ min: 0, max: 40 }), dur: fc.integer({ min: 1, max: 10 }), inn: fc.boolean(), out: fc.boolean() })
  .map(({ t, ts, dur, inn, out }) => ({ ph: 'X', name: 'b', ...t, ts, dur, bind_id: 5, ...(inn && { flow_in: true }), ...(out && { flow_out: true }) }) as Ev);

/** Keeps the slices that nest with those kept before on their thread (a thread's slices must nest), none twice. */
function nested(events: Ev[]): Ev[] {
  const kept: Ev[] = [];
  for (const e of events) {
    if (e.ph !== 'X') {
      kept.push(e);
      continue;
    }
    const a = e.ts as number, b = a + (e.dur as number);
    const ok = kept.every((k) => {
      if (k.ph !== 'X' || k.pid !== e.pid || k.tid !== e.tid) return true;
      const c = k.ts as number, d = c + (k.dur as number);
      // Disjoint, or one inside the other; the same range twice is one slice to a reader (which one a flow binds to is not said).
      return b <= c || d <= a || (!(c === a && d === b) && ((c <= a && b <= d) || (a <= c && d <= b)));
    });
    if (ok) kept.push(e);
  }
  return kept;
}

/** The moments item j is the innermost slice of its track, as [from, to) pieces between slice boundaries (brute force). */
function innermost(m: TimelineModel, j: number): [number, number][] {
  const { start, end } = m.items;
  let r = 0;
  while (m.rowItemStart[r + 1] <= j) r++;
  const tr = m.tracks.find((t) => t.kind === 'slices' && r >= t.rowStart && r < t.rowStart + t.rowCount)!;
  const mine: number[] = [];
  for (let i = m.rowItemStart[tr.rowStart]; i < m.rowItemStart[tr.rowStart + tr.rowCount]; i++) mine.push(i);
  const inner = mine.filter((i) => i !== j && start[i] >= start[j] && end[i] <= end[j]);
  const cuts = [...new Set([start[j], end[j], ...inner.flatMap((i) => [start[i], end[i]])])].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (let k = 0; k + 1 < cuts.length; k++) {
    const t = (cuts[k] + cuts[k + 1]) / 2;
    if (t > start[j] && t < end[j] && !inner.some((i) => start[i] <= t && t <= end[i])) out.push([cuts[k], cuts[k + 1]]);
  }
  return out;
}

/**
 * Whether an arrow can be written as an s/f pair a reader binds to its two slices: a moment each is
 * innermost, the f's after the s's (readers pair a flow's events in time order; the s goes to the
 * source's first such moment).
 */
function writable(m: TimelineModel, from: number, to: number): boolean {
  const a = innermost(m, from), b = innermost(m, to);
  return a.length > 0 && b.length > 0 && b[b.length - 1][1] > a[0][0];
}

/** Each arrow as "slice (with its end) → slice [cat/name]", sorted; one the source did not name (bind_id) as the export names it. */
function arrows(m: TimelineModel): string[] {
  const L = m.links;
  if (!L) return [];
  const s = (i: number) => `${sliceOf(m, i)}-${m.items.end[i]}`;
  return Array.from(L.from, (f, k) => `${s(f)} → ${s(L.to[k])} [${m.strings[L.cat?.[k] ?? 0] || 'link'}/${m.strings[L.name?.[k] ?? 0] || 'slice → slice'}]`).sort();
}

describe('Chrome flows through the export (property)', () => {
  it('come back as the same arrows between the same slices', () => {
    let checked = 0;
    fc.assert(fc.property(fc.array(fc.oneof(slice, slice, slice, flow, flow, bound), { minLength: 10, maxLength: 50 }), (raw) => {
      const events = nested(raw);
      const lines = ['[', ...events.map((e) => `${JSON.stringify(e)},`), ']'];
      const before = buildTimeline('x.trace.json', lines)!;
      const L = before.links;
      fc.pre(!!L && Array.from(L.from).every((f, k) => writable(before, f, L.to[k])));
      const e = new ChromeTraceExporter(before);
      let text = e.head();
      lines.forEach((l, i) => (text += e.line(l, i)));
      text += e.tail();
      const after = buildTimeline('back.trace.json', text.split('\n'))!;
      assert.deepEqual(arrows(after), arrows(before));
      checked++;
    }), { numRuns: 300 });
    // The precondition must leave cases to check, or the property says nothing.
    assert.ok(checked > 100, `${checked} cases checked`);
  });
});
