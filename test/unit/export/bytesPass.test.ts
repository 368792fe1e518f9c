import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChromeTraceExporter, type ChromeOut } from '../../../core/export/chromeTrace';
import { buildTimeline } from '../../../core/detectFormat';
import { traceLines } from '../../gen/genTrace';

// The CLI's writing pass hands the exporter bytes, and start lines wait in one buffer for their end
// lines (moved when it fills); the text must be the one the string pass writes.
const decode = (b: Uint8Array, s: number, e: number) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', s, e);

class Collect implements ChromeOut {
  parts: Buffer[] = [];
  text(s: string): void {
    this.parts.push(Buffer.from(s, 'utf8'));
  }
  bytes(b: Uint8Array, s: number, e: number): void {
    this.parts.push(Buffer.from(b.subarray(s, e)));
  }
}

test('the byte pass writes what the string pass writes, over several MB of held start lines', () => {
  const lines = [...traceLines({ events: 40_000, seed: 3 })];
  // A long start line whose end comes last: it stays held while the buffer fills and is moved.
  lines.splice(5, 0, `{"event_type":"CMD_START","t_cycle":1,"cmd_id":999999,"pad":"${'é'.repeat(300_000)}"}`);
  lines.push('{"event_type":"CMD_END","t_cycle":99999999,"cmd_id":999999}');
  const m = buildTimeline('g.trace.jsonl', lines)!;
  const a = new ChromeTraceExporter(m);
  let text = a.head();
  lines.forEach((l, i) => (text += a.line(l, i)));
  text += a.tail();

  const b = new ChromeTraceExporter(m);
  const out = new Collect();
  out.text(b.head());
  // Each line in its own buffer, overwritten after use, as the reader reuses its chunks.
  const scratch = Buffer.alloc(1 << 20);
  lines.forEach((l, i) => {
    const n = scratch.write(l, 0, 'utf8');
    b.lineBytes(scratch, 0, n, i, decode, out);
    scratch.fill(0x20, 0, n);
  });
  out.text(b.tail());
  const got = Buffer.concat(out.parts).toString('utf8');
  assert.ok(text.length > 8 << 20, `${text.length}`);
  assert.equal(got, text);
});
