// The streamed check of a data-model trace run on each event as it is read (given its settings, as
// `npu-trace check` gives them) against the same check keeping the events to the end: the same
// diagnostics, capped or not, whatever the pieces the text comes in. Mutations plant what the
// kept checks compare across events: repeated ids (the string "1" and the number 1 apart),
// kernels out of order and overlapping, broken and non-object events, odd names and times, scope
// ranges and parents.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { defaultDiagnosticSettings, type DiagnosticSettings } from '../../core/common/settings';
import { StreamedCheck } from '../../core/inferscope/streamCheck';
import { inferscopeTrace } from '../gen/inferscopeGen';

type Ev = Record<string, unknown>;

const edit = fc.tuple(fc.nat(15), fc.nat(10_000), fc.nat(10_000), fc.constantFrom<unknown>(1, '1', 0, -0, 1.5, null, true, 'x\u202e', 5, 'x'.repeat(90), '1', 1e300));

function apply(t: Record<string, unknown>, edits: [number, number, number, unknown][]): void {
  const ev = t.events as Ev[];
  const sc = (t.relationships as { scopes: Ev[] }).scopes;
  for (const [op, a, b, v] of edits) {
    const e = ev[a % ev.length];
    const o = ev[b % ev.length];
    const s = sc[a % sc.length];
    // An event an earlier edit made a number or null takes no field.
    if (op !== 9 && !(e && typeof e === 'object' && o && typeof o === 'object')) continue;
    switch (op) {
      case 0: e.id = o.id; break;
      case 1: e.id = v; break;
      case 2: e.timestamp_end_us = e.timestamp_start_us; break;
      case 3: e.timestamp_end_us = (e.timestamp_start_us as number) - 5; break;
      case 4: e.duration_us = 12345.5; break;
      case 5: if (e.type === 'gpu_kernel') { e.timestamp_start_us = (e.timestamp_start_us as number) - (b % 3000); e.timestamp_end_us = (e.timestamp_start_us as number) + 400; } break;
      case 6: e.type = 'gpu_kernel'; e.metadata = { device_id: b % 2, stream_id: [7, 8, undefined, 'x'][b % 4] }; break;
      case 7: e.name = v; break;
      case 8: e.timestamp_start_us = v; break;
      case 9: ev[a % ev.length] = v as Ev; break;
      case 10: s.event_range = [b % ev.length, (a + b) % Math.ceil(ev.length * 1.2)]; break;
      case 11: s.parent_id = sc[b % sc.length].id; break;
      case 12: e.metadata = [null, [], 'm', { device_id: 0 }][b % 4]; break;
      case 13: if (e.type === 'gpu_kernel' && o.type === 'gpu_kernel') { e.timestamp_start_us = o.timestamp_start_us; e.timestamp_end_us = (o.timestamp_end_us as number) + 1; } break;
      case 14: e.type = 'instant'; e.timestamp_us = [e.timestamp_start_us, undefined, 'z'][b % 3]; break;
      default: ev.push(JSON.parse(JSON.stringify(o)) as Ev);
    }
  }
}

const SETTINGS: DiagnosticSettings[] = [
  { ...defaultDiagnosticSettings, maxProblems: Infinity },
  { ...defaultDiagnosticSettings, maxProblems: 3 },
  { ...defaultDiagnosticSettings, maxProblems: 1 },
  { ...defaultDiagnosticSettings, maxProblems: 10, severity: { 'inferscope.duplicate-id': 'off', 'inferscope.kernel-overlap': 'error' } },
];

function check(text: string, sizes: readonly number[], settings: DiagnosticSettings, asRead: boolean): unknown {
  const c = asRead ? new StreamedCheck(settings) : new StreamedCheck();
  for (let i = 0, k = 0; i < text.length; k++) {
    const n = sizes[k % sizes.length];
    c.feed(text.slice(i, i + n));
    i += n;
  }
  return c.finish(settings);
}

describe('InferScope streamed check as the events come', () => {
  it('gives what the check keeping every event gives, capped or not, in any pieces', () => {
    fc.assert(fc.property(
      fc.integer({ min: 6, max: 16 }), fc.integer({ min: 1, max: 4 }), fc.array(edit, { maxLength: 14 }), fc.boolean(), fc.nat(99),
      fc.constantFrom([1 << 20], [4096], [13, 7], [777]), fc.constantFrom(...SETTINGS.keys()),
      (requests, kernels, edits, compact, cut, sizes, s) => {
        const t = inferscopeTrace({ requests, kernels });
        apply(t, edits);
        let text = compact ? JSON.stringify(t) : JSON.stringify(t, null, 2);
        // A cut file: its last event broken, the end a syntax problem.
        if (cut < 15) text = text.slice(0, Math.floor(text.length * (0.5 + cut / 30)));
        assert.deepEqual(check(text, sizes, SETTINGS[s], true), check(text, sizes, SETTINGS[s], false));
      }), { numRuns: 150 });
  });
});
