// FlowPairs pairs a flow's two events without sorting them (pairOfTwo, the common case of PyTorch's
// flows): against an oracle that sorts each flow's events by time (a start first at one time) and
// pairs each end or step with the start or step before it, for flows of one or two events of any
// roles, at equal and unequal times, in any file order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FlowPairs, type FlowRole } from '../../../core/chrome/flows';

type Ev = { key: string; role: FlowRole; ts: number; seq: number };

function oracle(events: Ev[]): string[] {
  const out: string[] = [];
  const keys = [...new Set(events.map((e) => e.key))];
  for (const key of keys) {
    const steps = events.filter((e) => e.key === key).sort((a, b) => a.ts - b.ts || (a.role === 'start' ? 0 : 1) - (b.role === 'start' ? 0 : 1) || a.seq - b.seq);
    let source: Ev | undefined;
    let used = false;
    for (const s of steps) {
      if (s.role !== 'start') {
        if (source) used = true;
        else out.push(`${key} ${s.seq}`);
      }
      if (s.role !== 'end') {
        if (source && !used && source.role === 'start') out.push(`${key} ${source.seq}`);
        source = s;
        used = false;
      }
    }
    if (source && !used && source.role === 'start') out.push(`${key} ${source.seq}`);
  }
  return out.sort();
}

const role = fc.constantFrom<FlowRole>('start', 'end', 'step');

describe('FlowPairs', () => {
  it('a flow of one or two events: its orphans are the oracle\'s', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.array(fc.tuple(role, fc.integer({ min: 0, max: 4 })), { minLength: 1, maxLength: 2 })), { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 30 }),
      (flows, order) => {
        // The flows' events interleaved in a random file order (each flow's own order kept or not).
        const events: Omit<Ev, 'seq'>[] = flows.flatMap(([evs], k) => evs.map(([r, ts]) => ({ key: `k${k}`, role: r, ts })));
        for (let i = 0; i < order.length && events.length > 1; i++) {
          const a = order[i] % events.length;
          const b = (a + 1 + (order[i] >> 3)) % events.length;
          [events[a], events[b]] = [events[b], events[a]];
        }
        const seq = events.map((e, i) => ({ ...e, seq: i }));
        const p = new FlowPairs();
        const range = (i: number) => ({ start: { line: i, character: 0 }, end: { line: i, character: 1 } });
        for (const e of seq) p.add(e.key, e.role, e.ts, range(e.seq));
        assert.deepEqual(p.orphans().map((o) => `${o.key} ${o.range.start.line}`).sort(), oracle(seq));
      },
    ), { numRuns: 500 });
  });
});
