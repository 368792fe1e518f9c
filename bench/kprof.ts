// Intra-kernel profiler buffers: decoding 16M records (128 MB) with the typed-array decoder against
// a straightforward BigInt loop — the spec's own decode loop with a stack per (lane, event) —
// alternating in this process so both see the same machine.
import { decode } from '../core/kprof/decode';
import { detectLayout, FLASHINFER } from '../core/kprof/layouts';
import { readNpy } from '../core/kprof/npy';
import { regionStats } from '../core/kprof/stats';
import { genKprofLarge, npyBytes } from '../test/gen/kprofGen';
import { decode as decodeV1 } from '../test/unit/kprof/decodeV1';
import { fmt, median, row, timed } from './util';

/** The loop a kernel author writes in Python, in JS: BigInt words, a Map of open starts, an object per region. */
function bigIntLoop(bytes: Uint8Array, offset: number, slots: number, numGroups: number): number {
  const words = new BigUint64Array(bytes.buffer, bytes.byteOffset + offset, slots);
  const opens = new Map<string, bigint[]>();
  const spans: { lane: number; event: number; start: bigint; dur: bigint }[] = [];
  for (let i = 1; i < slots; i++) {
    const word = words[i];
    if (word === 0n) continue;
    const ts = word >> 32n;
    const tag = Number(word & 0xffffffffn);
    const lane = tag >> 12;
    const event = (tag >> 2) & 0x3ff;
    const type = tag & 3;
    const key = `${lane},${event}`;
    if (type === 0) {
      const s = opens.get(key);
      if (s) s.push(ts);
      else opens.set(key, [ts]);
    } else if (type === 1) {
      const start = opens.get(key)?.pop();
      if (start !== undefined) spans.push({ lane: Math.floor(lane / numGroups) * numGroups + (lane % numGroups), event, start, dur: ts - start });
    }
  }
  return spans.length;
}

/**
 * The same records as FlashInfer's macros would write them: tag = sm << 24 | block << 12 | event
 * << 2 | type (block b on SM b mod 132), the lane only in the slot; each lane's finalize (which
 * FlashInfer has not) becomes its last instant.
 */
function asFlashInfer(words: Uint32Array, slots: number, groups: number): Uint32Array {
  const out = words.slice();
  const lanes = out[0] * out[1];
  for (let s = 1, l = 0; s < slots; s++, l = l + 1 === lanes ? 0 : l + 1) {
    const lo = out[2 * s];
    if ((lo | out[2 * s + 1]) === 0) continue;
    const block = Math.floor(l / groups);
    const type = (lo & 3) === 3 ? 2 : lo & 3;
    out[2 * s] = (((block % 132) << 24) | (block << 12) | (lo & 0xffc) | type) >>> 0;
  }
  return out;
}

export async function run(): Promise<void> {
  console.log('\n## kprof (intra-kernel profiler buffers)');
  const blocks = 132, groups = 4;
  const perLane = Math.ceil(16_000_000 / (blocks * groups));
  const g = genKprofLarge(blocks, groups, perLane);
  const npy = npyBytes(g.words);
  const records = (g.slots - 1);
  const ours: { wall: number; cpu: number }[] = [];
  const before: { wall: number; cpu: number }[] = [];
  const naive: { wall: number; cpu: number }[] = [];
  const stats: { wall: number; cpu: number }[] = [];
  const fiNpy = npyBytes(asFlashInfer(g.words, g.slots, groups));
  const fi: { wall: number; cpu: number }[] = [];
  let regions = 0;
  let naiveRegions = 0;
  for (let r = 0; r < 3; r++) {
    const a = await timed(() => decode(readNpy(npy)[0]));
    regions = a.value.regionCount;
    if (a.value.problems.length) throw new Error(`the bench buffer has problems: ${a.value.problems[0].message}`);
    ours.push(a);
    before.push(await timed(() => decodeV1(readNpy(npy)[0]).regionCount));
    stats.push(await timed(() => [regionStats(a.value), regionStats(a.value, 'group')]));
    const f = await timed(() => {
      const buf = readNpy(fiNpy)[0];
      return decode(buf, { layout: detectLayout(buf.words, buf.slots) });
    });
    if (f.value.layout !== FLASHINFER || f.value.regionCount !== regions || f.value.problems.length) throw new Error('the FlashInfer-shaped bench buffer decodes otherwise');
    fi.push(f);
    const b = await timed(() => bigIntLoop(npy, npy.length - g.slots * 8, g.slots, groups));
    naiveRegions = b.value;
    naive.push(b);
  }
  if (naiveRegions !== regions) throw new Error(`the loops disagree: ${regions} regions against ${naiveRegions}`);
  const m = (xs: { wall: number; cpu: number }[]) => `${fmt(median(xs.map((x) => x.wall)))} / ${fmt(median(xs.map((x) => x.cpu)))} ms`;
  row(`decode ${(records / 1e6).toFixed(1)}M records (${fmt(npy.length / 2 ** 20)} MB .npy), ${regions} regions, median of 3, wall / CPU`, m(ours), 'target ≤ 1000 ms');
  row('the same records as FlashInfer writes them (layout detected, lanes from slots; wall / CPU)', m(fi));
  row('the previous decoder (JS-array stacks, float time; test/unit/kprof/decodeV1.ts), same buffer (wall / CPU)', m(before));
  row('straightforward BigInt loop, same buffer (wall / CPU)', m(naive));
  row('per-region statistics, per event and per group (wall / CPU)', m(stats));
  row('speed-up over the BigInt loop (wall / CPU)', `${fmt(median(naive.map((x) => x.wall)) / median(ours.map((x) => x.wall)), 2)}× / ${fmt(median(naive.map((x) => x.cpu)) / median(ours.map((x) => x.cpu)), 2)}×`);
}
