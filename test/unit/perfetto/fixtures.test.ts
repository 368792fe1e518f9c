import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ChromeTraceExporter } from '../../../core/export/chromeTrace';
import { SLICES_COLUMNS } from '../../../core/export/parquet/schema';
import { timelineSliceRows } from '../../../core/export/parquet/timelineRows';
import { looksLikePerfettoProto } from '../../../core/perfetto/detect';
import { readPerfettoBytes } from '../../../core/perfetto/file';
import { perfettoTimeline } from '../../../core/perfetto/timeline';
import { FLAG } from '../../../core/timeline/model';
import { PERFETTO_FIXTURES, perfettoFixtures } from '../../gen/perfettoFixtures';
import { detectFormat } from '../../../core/detectFormat';
import { FileHead } from '../../../core/fileHead';
import { perfettoFormat } from '../../../core/perfetto/descriptor';

const files = perfettoFixtures();

describe('perfetto fixtures (test/fixtures/real/perfetto)', () => {
  for (const [name, bytes] of Object.entries(files)) {
    it(`${name}: as its generator writes it, recognised, read without errors, every slice drawn and exported`, () => {
      const onDisk = new Uint8Array(readFileSync(join(PERFETTO_FIXTURES, name)));
      assert.deepEqual(onDisk, bytes, 'regenerate with node --import tsx test/gen/writePerfettoFixtures.ts');
      assert.ok(looksLikePerfettoProto(name, onDisk.subarray(0, 65536)));
      const r = readPerfettoBytes(onDisk);
      assert.deepEqual(r.diagnostics.filter((d) => d.severity === 'error'), []);
      const m = perfettoTimeline(onDisk);
      const slices = r.file.reader.stats.slices;
      const spans = m.items.flags.filter((f) => !(f & FLAG.instant)).length;
      assert.equal(spans, slices, 'every slice on the timeline');
      const e = new ChromeTraceExporter(m, { source: name });
      const ev = (JSON.parse(e.head() + e.tail()) as { traceEvents: { ph: string }[] }).traceEvents;
      assert.equal(ev.filter((x) => x.ph === 'X').length, slices, 'every slice exported');
      const kinds: unknown[] = [];
      const rows = timelineSliceRows(m, name, (_t, cols) => kinds.push(...cols[SLICES_COLUMNS.findIndex((c) => c.name === 'kind')]));
      assert.equal(rows, m.items.start.length, 'every item a Parquet row');
      assert.equal(kinds.filter((k) => k === 'slice').length, slices, 'every slice a Parquet row');
    });
  }

  it('the three kinds of the issue hold what they say', () => {
    const sdk = readPerfettoBytes(files['sdk-track-events.pftrace']);
    assert.equal(sdk.file.reader.stats.slices, 6);
    assert.equal(sdk.file.reader.stats.prints, 0);
    const android = readPerfettoBytes(files['android-atrace.perfetto-trace']);
    assert.equal(android.file.reader.stats.slices, 10);
    assert.equal(android.file.reader.stats.trackEvents, 0);
    const none = readPerfettoBytes(files['no-events.pftrace']);
    assert.deepEqual(none.diagnostics.map((d) => d.code), ['perfetto.empty-trace']);
    const nn = readPerfettoBytes(files['nnapi-mobilenet.perfetto-trace']);
    assert.ok(nn.nnapi && nn.nnapi.runs.length > 0, 'NNAPI marks: analysed');
  });
});

describe('perfetto in the format registry', () => {
  it('detectFormat: by name, and by bytes under any name no format claims; text starting with a blank line is not one', () => {
    const b = files['android-atrace.perfetto-trace'];
    assert.equal(detectFormat('x.pftrace'), perfettoFormat);
    assert.equal(detectFormat('x.perfetto-trace.gz'), perfettoFormat);
    assert.equal(detectFormat('capture', new FileHead('', b)), perfettoFormat);
    assert.equal(detectFormat('capture.dat', new FileHead('', b)), perfettoFormat);
    const text = new TextEncoder().encode('\n# tracer: nop\n');
    assert.notEqual(detectFormat('capture.dat', new FileHead('\n# tracer: nop\n', text)), perfettoFormat);
  });
});
