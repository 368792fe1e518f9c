import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SyncSink } from '../../../cli/syncSink';

// The export writes numbers as digits straight into its buffer: the text must be String(x)'s,
// for the exporter's µs (multiples of 1e-6), integers, and anything else (which falls back).
test('SyncSink.number writes what String(x) writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'npu-sink-'));
  try {
    const xs: number[] = [0, -0, 1, 9, 10, 99, 100, 123456789, 999999999999999, 1e15, 2 ** 53, 1e21, -7, 0.5, 0.000001, 0.0000005, 1e-7, 12.000001, 999999999.999999, 1e9 + 0.5, 0.1 + 0.2, NaN, Infinity, -Infinity, -3.25];
    let seed = 1;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let k = 0; k < 20000; k++) {
      const cycles = Math.floor(rnd() * 1e12);
      // The exporter's times: cycles through a clock, rounded to the ps.
      xs.push(Math.round(cycles * (0.8333333333 / 1000) * 1e6) / 1e6, Math.round(rnd() * 1e6) / 1e6, -Math.round(rnd() * 1e9) / 1e6, rnd() * 1e3, cycles);
    }
    const file = join(dir, 'n.txt');
    const sink = new SyncSink(file);
    for (const x of xs) {
      sink.number(x);
      sink.text('|');
    }
    sink.text('é ✓ 𝄞');
    sink.close();
    const got = readFileSync(file, 'utf8').split('|');
    assert.equal(got.length, xs.length + 1);
    xs.forEach((x, k) => assert.equal(got[k], String(x), `${x}`));
    assert.ok(readFileSync(file, 'utf8').endsWith('|é ✓ 𝄞'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
