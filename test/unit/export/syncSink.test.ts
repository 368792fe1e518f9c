import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SyncSink } from '../../../node/io/syncSink';

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

// Short pieces are UTF-8-encoded in JS (arrow names hold a '→'): the bytes must be Buffer.from's,
// at every encoded length's edges, for pairs, and for lone surrogates (which take the native path).
test('SyncSink.text writes the UTF-8 bytes Buffer.from writes for short and long pieces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'npu-sink-'));
  try {
    const chars = ['a', '"', '\u007f', '\u0080', 'é', '\u07ff', '\u0800', '→', '\ud7ff', '\ue000', '\uffff', '\ud834\udd1e', '\ud800', '\udfff'];
    let seed = 7;
    const rnd = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
    const pieces: string[] = [...chars, ',"cat":"link","name":"command → job","pid":'];
    for (let k = 0; k < 5000; k++) pieces.push(Array.from({ length: rnd(80) }, () => chars[rnd(chars.length)]).join(''));
    const file = join(dir, 't.txt');
    const sink = new SyncSink(file);
    for (const p of pieces) sink.text(p);
    sink.close();
    assert.ok(readFileSync(file).equals(Buffer.concat(pieces.map((p) => Buffer.from(p, 'utf8')))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
