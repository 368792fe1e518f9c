// `npu-trace export --to parquet` on hostile traces: the rows of a table are held until their row
// group is written, so a file of long lines must not fill a group in memory. Bounds are generous
// (far from a crash), not a measure of speed; inputs are generated in a scratch directory.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { runCliLimited, scratch } from './limits';

const MAX_MB = 500;
// Time is not what this test bounds (memory is): 7 s of CPU took 25–40 s of wall time at load 17.
const MAX_MS = 120_000;

let dir = '';
let done = () => {};
before(() => ({ dir, done } = scratch()));
after(() => done());

describe('export --to parquet, hostile', () => {
  it('exports 600 lines of 1 MB each (600 MB of text) within 500 MB of RSS: row groups are capped in bytes, not only rows', async () => {
    const file = join(dir, 'long.trace.jsonl.gz');
    const blob = 'a'.repeat(1 << 20);
    async function* gen() {
      for (let i = 0; i < 600; i++) yield Buffer.from(`{"event_type":"X","t_cycle":${i},"blob":"${blob}"}\n`);
    }
    await pipeline(gen(), createGzip({ level: constants.Z_BEST_SPEED }), createWriteStream(file));
    const r = await runCliLimited(['export', file, '--to', 'parquet', '-o', join(dir, 'out')], MAX_MS);
    assert.ok(!r.timedOut, `still running after ${MAX_MS} ms`);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.peakMb <= MAX_MB, `peak RSS ${Math.round(r.peakMb)} MB > ${MAX_MB} MB`);
    const db = await (await DuckDBInstance.create()).connect();
    const rows = (await db.runAndReadAll(`SELECT count(*) AS n, sum(length(fields)) AS chars FROM '${join(dir, 'out', 'long', 'events.parquet')}'`)).getRowObjects();
    assert.deepEqual(rows, [{ n: 600n, chars: BigInt(600 * ((1 << 20) + '{"blob":""}'.length)) }]);
  });
});
