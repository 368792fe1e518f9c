import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WireType, type BinaryWriter } from '@bufbuild/protobuf/wire';
import { ChromeTraceExporter } from '../../../core/export/chromeTrace';
import { perfettoTimeline } from '../../../core/perfetto/timeline';
import type { TimelineModel } from '../../../core/timeline/model';
import { msg, str, TraceWriter } from '../../gen/perfettoGen';

interface Ev { ts: number; type: 1 | 2 | 3; name?: string; track: number; flows?: number[]; ends?: number[] }

/**
 * Track events as the Perfetto SDK writes them with `perfetto::Flow::ProcessScoped(id)` /
 * `TerminatingFlow` (track_event.proto: `flow_ids` 47 and `terminating_flow_ids` 48, fixed64, one
 * field per id), on tracks without descriptors, names inline.
 */
function trace(events: Ev[]): Uint8Array {
  const t = new TraceWriter();
  for (const e of events) {
    t.packet((p: BinaryWriter) => {
      p.tag(8, WireType.Varint).uint64(BigInt(e.ts));
      p.tag(10, WireType.Varint).uint32(1);
      msg(p, 11, (te) => {
        te.tag(9, WireType.Varint).int32(e.type);
        te.tag(11, WireType.Varint).uint64(BigInt(e.track));
        if (e.name) str(te, 23, e.name);
        for (const f of e.flows ?? []) te.tag(47, WireType.Bit64).fixed64(BigInt(f));
        for (const f of e.ends ?? []) te.tag(48, WireType.Bit64).fixed64(BigInt(f));
      });
    });
  }
  return t.finish();
}

function arrows(m: TimelineModel): string[] {
  const name = (i: number) => m.strings[m.items.name[i]];
  return m.links ? Array.from(m.links.from, (f, k) => `${name(f)} → ${name(m.links!.to[k])}`) : [];
}

describe('perfetto flows: flow_ids and terminating_flow_ids as arrows', () => {
  it('chains the events of one flow id in time order; a terminating id ends the flow, a later use starts another', () => {
    const m = perfettoTimeline(trace([
      { ts: 100, type: 1, name: 'post', track: 1, flows: [7] },
      { ts: 200, type: 2, track: 1 },
      // The receiving slice opens later on another track; its instant inside also steps the flow.
      { ts: 300, type: 1, name: 'handle', track: 2, flows: [7] },
      { ts: 350, type: 3, name: 'done', track: 2, ends: [7] },
      { ts: 400, type: 2, track: 2 },
      { ts: 500, type: 3, name: 'again', track: 1, flows: [7] },
      { ts: 600, type: 3, name: 'other', track: 2, flows: [9] },
    ]));
    assert.deepEqual(arrows(m), ['post → handle', 'handle → done']);
    // The arrows go to the Chrome export as flow events.
    const e = new ChromeTraceExporter(m, { source: 'x.pftrace' });
    const events = (JSON.parse(e.head() + e.tail()) as { traceEvents: { ph: string }[] }).traceEvents;
    assert.ok(events.some((x) => x.ph === 's') && events.some((x) => x.ph === 'f'), JSON.stringify(events.map((x) => x.ph)));
  });

  it('no flows: no links', () => {
    assert.equal(perfettoTimeline(trace([{ ts: 1, type: 3, name: 'a', track: 1 }])).links, undefined);
  });
});
