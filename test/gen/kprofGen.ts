// A deterministic generator of TVM CudaProfiler buffers (../shared/specs/tvm-cudaprofiler.rst):
// it simulates what each (block, group) leader writes — header from block 0, a cursor per lane
// starting at 1 + block_group and advancing by write_stride, `ts_lo32 << 32 | tag` records —
// with fences ignored, and a switch for each caveat of the spec's "Usage notes". When two writes
// hit one slot, the later one in time wins, as on the GPU.

/** One write of a lane's leader: type (0 start, 1 end, 2 instant, 3 finalize), event, ns after its previous write. */
export type Op = [type: 0 | 1 | 2 | 3, event: number, afterNs: number];

export interface KprofGenOptions {
  blocks: number;
  groups?: number;
  /** write_stride (default blocks × groups, the tight value). */
  stride?: number;
  /** Slots in the buffer (default: exactly what the writes need). */
  slots?: number;
  /** What a lane's leader records, finalize excluded (default: `loadComputeStore`). */
  program?: (block: number, group: number) => Op[];
  /** Raw globaltimer at the kernel's start (ns); near 2^32 to make the timer wrap. */
  startNs?: number;
  /** Lane start skew between blocks (ns) so lanes differ; deterministic. */
  seed?: number;
  // Caveat switches.
  /** These lanes (block_group indices) never write their finalize record. */
  noFinalize?: number[];
  /** A second leader in this lane (block_group), running the program with one extra region first. */
  twoLeaders?: number;
  /** Slot 0 is never written (block 0 / thread 0 did not run init). */
  noHeader?: boolean;
  /** How a tag is packed (default tvm: `bg << 12 | event << 2 | type`); for the other layouts' presets. */
  pack?: (bg: number, event: number, type: number) => number;
  /** Whether leaders write a finalize record (default true; FlashInfer and Mirage have none). */
  finalize?: boolean;
}

/** The spec's kernel: load, compute (dominant), store. */
export function loadComputeStore(block: number, _group = 0, load = block === 0 ? 32 : 96, compute = 8704, store = 64): Op[] {
  return [[0, 0, 0], [1, 0, load], [0, 1, 32], [1, 1, compute], [0, 2, 32], [1, 2, store]];
}

/** A sequence of regions `[event, durNs]`, `gapNs` apart. */
export function regionsProgram(regions: [event: number, durNs: number][], gapNs = 32): Op[] {
  const out: Op[] = [];
  regions.forEach(([ev, dur], i) => {
    out.push([0, ev, i ? gapNs : 0], [1, ev, dur]);
  });
  return out;
}

export interface Generated {
  /** lo/hi 32-bit halves of each uint64 slot (what the decoder reads). */
  words: Uint32Array;
  slots: number;
  stride: number;
  /** Writes that fell past the end of the buffer (lost). */
  lost: number;
}

function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

export function genKprof(o: KprofGenOptions): Generated {
  const groups = o.groups ?? 1;
  const lanes = o.blocks * groups;
  const stride = o.stride ?? lanes;
  const program = o.program ?? ((b: number, g: number) => loadComputeStore(b, g));
  const rand = lcg(o.seed ?? 1);
  const start = o.startNs ?? 1_000_000;
  const noFin = new Set(o.noFinalize ?? []);
  // Every write: slot, time, tag. A lane's program plus finalize.
  const writes: { slot: number; t: number; tag: number; order: number }[] = [];
  let maxSlot = 0;
  const leader = (bg: number, ops: Op[], t0: number) => {
    let cursor = 1 + bg;
    let t = t0;
    const all: Op[] = noFin.has(bg) || o.finalize === false ? ops : [...ops, [3, 0, 16]];
    for (const [type, ev, after] of all) {
      t += after;
      writes.push({ slot: cursor, t, tag: (o.pack ? o.pack(bg, ev, type) : (bg << 12) | (ev << 2) | type) >>> 0, order: writes.length });
      maxSlot = Math.max(maxSlot, cursor);
      cursor += stride;
    }
  };
  for (let b = 0; b < o.blocks; b++) {
    const skew = b === 0 ? 0 : Math.floor(rand() * 64);
    for (let g = 0; g < groups; g++) {
      const bg = b * groups + g;
      leader(bg, program(b, g), skew);
      if (o.twoLeaders === bg) leader(bg, [[0, 0, 0], [1, 0, 40], ...program(b, g)], skew);
    }
  }
  const slots = o.slots ?? maxSlot + 1;
  const words = new Uint32Array(slots * 2);
  if (!o.noHeader) {
    words[0] = o.blocks;
    words[1] = groups;
  }
  writes.sort((a, b) => a.t - b.t || a.order - b.order);
  let lost = 0;
  for (const wr of writes) {
    if (wr.slot >= slots) { lost++; continue; }
    words[2 * wr.slot] = wr.tag;
    words[2 * wr.slot + 1] = (start + wr.t) % 2 ** 32;
  }
  return { words, slots, stride, lost };
}

/** A big clean buffer written straight into the arrays (the bench's 16M records): no write list. */
export function genKprofLarge(blocks: number, groups: number, recordsPerLane: number): Generated {
  const lanes = blocks * groups;
  // Regions and one finalize: an odd number of records per lane.
  const regions = Math.floor((recordsPerLane - 1) / 2);
  const slots = 1 + lanes * (2 * regions + 1);
  const words = new Uint32Array(slots * 2);
  words[0] = blocks;
  words[1] = groups;
  for (let bg = 0; bg < lanes; bg++) {
    let t = 1000 + (bg % 97);
    let slot = 1 + bg;
    for (let r = 0; r < regions; r++) {
      const ev = r % 8;
      words[2 * slot] = (bg << 12) | (ev << 2);
      words[2 * slot + 1] = t;
      slot += lanes;
      t += 40 + ((r * 7 + bg) % 50);
      words[2 * slot] = (bg << 12) | (ev << 2) | 1;
      words[2 * slot + 1] = t;
      slot += lanes;
      t += 8;
    }
    words[2 * slot] = (bg << 12) | 3;
    words[2 * slot + 1] = t;
  }
  return { words, slots, stride: lanes, lost: 0 };
}

/** The uint64 words as little-endian bytes (what `.bin` and `.npy` data hold). */
export function wordBytes(words: Uint32Array): Uint8Array {
  return new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
}

/** A `.npy` (version `major`) of these words, dtype `<u8`, 1-D, or 2-D with `rows` rows. */
export function npyBytes(words: Uint32Array, opts: { major?: 1 | 2 | 3; descr?: string; shape?: string; fortran?: boolean } = {}): Uint8Array {
  const major = opts.major ?? 1;
  const shape = opts.shape ?? `(${words.length / 2},)`;
  let header = `{'descr': '${opts.descr ?? '<u8'}', 'fortran_order': ${opts.fortran ? 'True' : 'False'}, 'shape': ${shape}, }`;
  const pre = major === 1 ? 10 : 12;
  const total = Math.ceil((pre + header.length + 1) / 64) * 64;
  header = header.padEnd(total - pre - 1, ' ') + '\n';
  const out = new Uint8Array(total + words.byteLength);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0]);
  if (major === 1) { out[8] = header.length & 0xff; out[9] = header.length >> 8; } else { new DataView(out.buffer).setUint32(8, header.length, true); }
  for (let i = 0; i < header.length; i++) out[pre + i] = header.charCodeAt(i);
  out.set(wordBytes(words), total);
  return out;
}

/** A `.npy` of strings, dtype `<U n` (what `np.array(names)` saves). */
export function npyNames(names: string[]): Uint8Array {
  const width = Math.max(1, ...names.map((s) => [...s].length));
  const data = new Uint32Array(names.length * width);
  names.forEach((s, i) => [...s].forEach((c, j) => (data[i * width + j] = c.codePointAt(0)!)));
  const npy = npyBytes(new Uint32Array(0), { descr: `<U${width}`, shape: `(${names.length},)` });
  const out = new Uint8Array(npy.length + data.byteLength);
  out.set(npy);
  out.set(new Uint8Array(data.buffer), npy.length);
  return out;
}

/** Regions at absolute times `[event, startNs, durNs]` (in start order, not overlapping) as a program. */
export function timedProgram(regions: [event: number, startNs: number, durNs: number][]): Op[] {
  const out: Op[] = [];
  let t = 0;
  for (const [ev, start, dur] of regions) {
    out.push([0, ev, start - t], [1, ev, dur]);
    t = start + dur;
  }
  return out;
}

export const SPEC_NAMES = ['load', 'compute', 'store'];
export const WARPSPEC_NAMES = ['issue-tma-k', 'issue-tma-v', 'mma-qk', 'mma-pv', 'softmax-max', 'softmax-exp2', 'softmax-sum', 'correction', 'epilogue'];

/**
 * A warp-specialized attention kernel as in the spec's FA4 figure, 2 blocks × 6 groups: group 0
 * issues the TMA loads, groups 1–2 the MMAs, groups 3–4 the softmax, group 5 the correction; each
 * stage of 8 overlaps the producer's next loads with the consumers' work on this one.
 */
export function warpSpecProgram(block: number, group: number): Op[] {
  const stage = 600 + 40 * block;
  const r: [number, number, number][] = [];
  for (let i = 0; i < 8; i++) {
    const t = 200 + i * stage;
    if (group === 0) r.push([0, t, 160], [1, t + 200, 160]);
    else if (group === 1) r.push([2, t + 180, 220]);
    else if (group === 2) r.push([3, t + 420, 150]);
    else if (group === 3 || group === 4) r.push([4, t + 400 + 10 * group, 60], [5, t + 470 + 10 * group, 70]);
    else r.push([7, t + 560, 30]);
  }
  if (group === 2) r.push([8, 200 + 8 * stage + 100, 300]);
  return timedProgram(r);
}

/** The committed examples: file name → bytes (`npm run examples` writes them). */
export function kprofExamples(): Record<string, Uint8Array> {
  const spec = genKprof({ blocks: 4, slots: 4096 });
  const ws = genKprof({ blocks: 2, groups: 6, program: warpSpecProgram, slots: 1024 });
  const enc = (s: string) => new Uint8Array(Buffer.from(s));
  return {
    'examples/spec.kprof.npy': npyBytes(spec.words),
    'examples/spec.kprof.npy.names.json': enc(`${JSON.stringify(SPEC_NAMES)}\n`),
    'examples/warpspec.kprof.npy': npyBytes(ws.words),
    'examples/warpspec.kprof.names.txt': enc(`${WARPSPEC_NAMES.join('\n')}\n`),
  };
}

/** A zip of `.npy` entries as numpy.savez writes it (stored) or savez_compressed (deflated). */
export function npzBytes(entries: Record<string, Uint8Array>, deflate?: (b: Uint8Array) => Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (b: Uint8Array) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  for (const [key, data] of Object.entries(entries)) {
    const name = Buffer.from(`${key}.npy`);
    const body = deflate ? deflate(data) : data;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc32(data), 14); local.writeUInt32LE(body.length, 18); local.writeUInt32LE(data.length, 22); local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0); cd.writeUInt16LE(20, 4); cd.writeUInt16LE(20, 6); cd.writeUInt16LE(deflate ? 8 : 0, 10);
    cd.writeUInt32LE(crc32(data), 16); cd.writeUInt32LE(body.length, 20); cd.writeUInt32LE(data.length, 24); cd.writeUInt16LE(name.length, 28); cd.writeUInt32LE(offset, 42);
    parts.push(local, name, body);
    central.push(cd, name);
    offset += 30 + name.length + body.length;
  }
  const cdSize = central.reduce((a, b) => a + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(Object.keys(entries).length, 8); end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(cdSize, 12); end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, ...central, end]));
}
