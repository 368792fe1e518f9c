// Flow links of the Chrome timeline against a brute-force oracle: random slices on a few threads
// and flows (s/t/f, bp "e" or not, ids as numbers and strings, bind_id slices) in any file order,
// written one event per line or all on one line. The oracle binds each flow event by scanning every
// slice of its thread; the builder binds through the laid-out rows. Both give the same arrows
// (compared by thread and start, so equal-start ties may bind either slice), every item maps back
// to its own event's text on a one-line file, and the page's model check accepts the model.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildTimeline } from '../../core/detectFormat';
import { validModel } from '../../protocol/timeline';
import { sourceSpot } from '../../core/timeline/sourcePosition';

type Ev = Record<string, unknown>;

const thread = fc.record({ pid: fc.constantFrom(1, '1', 1, 2), tid: fc.constantFrom(1, 2, 2, 3) });
const slice = fc.record({ t: thread, ts: fc.integer({ min: 0, max: 30 }), dur: fc.integer({ min: 0, max: 20 }) })
  .map(({ t, ts, dur }) => ({ ph: 'X', name: 'x', ...t, ts, dur }) as Ev);
const flow = fc.record({
  t: thread, ts: fc.integer({ min: 0, max: 35 }), ph: fc.constantFrom('s', 's', 't', 'f', 'f'), bp: fc.boolean(),
  cat: fc.constantFrom('a', 'a', 'a', 'b'), id: fc.constantFrom(1, '1', 1, 2, '02'),
}).map(({ t, ts, ph, bp, cat, id }) => ({ ph, cat, id, ...t, ts, ...(ph === 'f' && bp && { bp: 'e' }) }) as Ev);
const bound = fc.record({ t: thread, ts: fc.integer({ min: 0, max: 40 }), dur: fc.integer({ min: 1, max: 10 }), id: fc.constantFrom(5, '5', 6), inn: fc.boolean(), out: fc.boolean() })
  .map(({ t, ts, dur, id, inn, out }) => ({ ph: 'X', name: 'b', ...t, ts, dur, bind_id: id, ...(inn && { flow_in: true }), ...(out && { flow_out: true }) }) as Ev);

const norm = (v: unknown) => (typeof v === 'string' && String(Number(v)) === v ? Number(v) : v);
const threadOf = (e: Ev) => `${norm(e.pid)}/${norm(e.tid)}`;

/** The arrows as "thread@start -> thread@start", sorted, by scanning every slice (the oracle). */
function oracle(events: Ev[]): string[] {
  const slices = events.map((e, k) => ({ e, k })).filter(({ e }) => e.ph === 'X');
  const sig = (k: number) => `${threadOf(events[k])}@${events[k].ts as number}`;
  const bind = (e: Ev): number => {
    const mine = slices.filter((s) => threadOf(s.e) === threadOf(e));
    const ts = e.ts as number;
    if (e.ph === 'f' && e.bp !== 'e') {
      const next = mine.filter((s) => (s.e.ts as number) >= ts).sort((a, b) => (a.e.ts as number) - (b.e.ts as number) || (b.e.dur as number) - (a.e.dur as number));
      if (next.length) return next[0].k;
    }
    const end = (s: { e: Ev }) => (s.e.ts as number) + (s.e.dur as number);
    const open = mine.filter((s) => (s.e.ts as number) <= ts && ts <= end(s));
    open.sort((a, b) => (b.e.ts as number) - (a.e.ts as number) || end(a) - end(b));
    return open.length ? open[0].k : -1;
  };
  // Steps: [flow key, ts, file order, role (0 start, 1 step, 2 end), bound slice].
  const steps: [string, number, number, number, number][] = [];
  events.forEach((e, k) => {
    if (e.ph === 's' || e.ph === 't' || e.ph === 'f') steps.push([`${String(e.cat)}|${String(norm(e.id))}`, e.ts as number, k, e.ph === 's' ? 0 : e.ph === 't' ? 1 : 2, bind(e)]);
    if (e.ph === 'X' && e.bind_id !== undefined) {
      if (e.flow_in) steps.push([`bind|${String(norm(e.bind_id))}`, e.ts as number, k, 2, k]);
      if (e.flow_out) steps.push([`bind|${String(norm(e.bind_id))}`, e.ts as number, k + 0.5, 0, k]);
    }
  });
  steps.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2]));
  const out: string[] = [];
  let key = '', source = -1;
  for (const [k, , , role, b] of steps) {
    if (k !== key) [key, source] = [k, -1];
    if (role !== 0 && source >= 0 && b >= 0 && b !== source) out.push(`${sig(source)} -> ${sig(b)}`);
    if (role === 0 || (role === 1 && b >= 0)) source = b;
  }
  return out.sort();
}

describe('Chrome flow links (property)', () => {
  it('bind as the brute-force oracle binds them, on one event per line and on one line', () => {
    // Two slices of one thread with the same start and end are one slice to a reader: the file
    // does not say which one a flow binds to, so none are drawn twice here.
    const distinct = (e: Ev) => (e.ph === 'X' ? `${threadOf(e)}|${e.ts as number}|${e.dur as number}` : Math.random());
    // A zero-length slice starting with a longer one of its thread: whether a flow at that instant
    // binds the zero-length one (the oracle) or the one that covers it (the builder) is not said by
    // the file either, so such pairs are left out (one failed CI run in a few hundred drew one).
    const zeroTie = (events: Ev[]) => events.some((a) => a.ph === 'X' && a.dur === 0 && events.some((b) => b !== a && b.ph === 'X' && threadOf(b) === threadOf(a) && b.ts === a.ts));
    fc.assert(fc.property(fc.uniqueArray(fc.oneof(slice, slice, flow, flow, bound), { minLength: 15, maxLength: 50, selector: distinct }), fc.boolean(), (events, oneLine) => {
      fc.pre(!zeroTie(events));
      const lines = oneLine ? [JSON.stringify({ traceEvents: events })] : ['[', ...events.map((e) => `${JSON.stringify(e)},`), ']'];
      const m = buildTimeline('x.trace.json', lines)!;
      assert.ok(validModel(m));
      const it = m.items;
      const sig = (i: number) => {
        const spot = sourceSpot(m, i);
        // The item's own event, found by its characters (one line) or by its line (one per line).
        const e = (spot ? JSON.parse(lines[spot.line].slice(spot.char, spot.charEnd)) : JSON.parse(lines[it.line[i]].replace(/,$/, ''))) as Ev;
        assert.equal(e.ts, it.start[i]);
        return `${threadOf(e)}@${it.start[i]}`;
      };
      const got = m.links ? Array.from(m.links.from, (f, k) => `${sig(f)} -> ${sig(m.links!.to[k])}`).sort() : [];
      assert.deepEqual(got, oracle(events));
      if (oneLine && events.length > 1) assert.ok(m.chars);
    }), { numRuns: 300 });
  });
});
