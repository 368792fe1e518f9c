// Just enough of the ZIP format (APPNOTE.TXT) to read a NumPy `.npz`: the central directory, stored
// (0) and deflated (8) entries, and the zip64 extra field numpy's `savez` writes
// (`zipfile.open(..., force_zip64=True)`). Decompression is handed in, so this stays pure.
import { KprofFormatError, MAX_BUFFER_BYTES, MAX_INFLATED_BYTES } from './errors';

/** Raw DEFLATE decompression producing at most `maxBytes` (the adapter passes zlib's). */
export type InflateRaw = (data: Uint8Array, maxBytes: number) => Uint8Array;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_ENTRIES = 10_000;

const u16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u32 = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
const u64 = (b: Uint8Array, o: number) => u32(b, o) + u32(b, o + 4) * 2 ** 32;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && u32(bytes, 0) === LOCAL;
}

export function zipEntries(bytes: Uint8Array): ZipEntry[] {
  // The end record is in the last 22 + 65 535 bytes (its comment is at most 65 535 bytes).
  let eocd = -1;
  for (let o = bytes.length - 22; o >= 0 && o >= bytes.length - 22 - 0xffff; o--) {
    if (u32(bytes, o) === EOCD) { eocd = o; break; }
  }
  if (eocd < 0) throw new KprofFormatError('The .npz is not a complete zip file (no end of central directory: cut off?)');
  let count = u16(bytes, eocd + 10);
  let cdOffset = u32(bytes, eocd + 16);
  if (cdOffset === 0xffffffff || count === 0xffff) {
    // Zip64: the locator sits just before the end record.
    const loc = eocd - 20;
    if (loc < 0 || u32(bytes, loc) !== 0x07064b50) throw new KprofFormatError('The .npz zip64 directory locator is missing');
    const rec = u64(bytes, loc + 8);
    if (rec + 56 > bytes.length || u32(bytes, rec) !== 0x06064b50) throw new KprofFormatError('The .npz zip64 end record is missing');
    count = u64(bytes, rec + 32);
    cdOffset = u64(bytes, rec + 48);
  }
  if (count > MAX_ENTRIES) throw new KprofFormatError(`The .npz claims ${count} arrays, over the ${MAX_ENTRIES} read`);
  const out: ZipEntry[] = [];
  let o = cdOffset;
  for (let n = 0; n < count; n++) {
    if (o + 46 > bytes.length || u32(bytes, o) !== CENTRAL) throw new KprofFormatError('The .npz central directory is damaged');
    const method = u16(bytes, o + 10);
    let compressedSize = u32(bytes, o + 20);
    let size = u32(bytes, o + 24);
    const nameLen = u16(bytes, o + 28);
    const extraLen = u16(bytes, o + 30);
    const commentLen = u16(bytes, o + 32);
    let localOffset = u32(bytes, o + 42);
    if (o + 46 + nameLen + extraLen > bytes.length) throw new KprofFormatError('The .npz central directory is cut off');
    let name = '';
    for (let i = 0; i < Math.min(nameLen, 200); i++) name += String.fromCharCode(bytes[o + 46 + i]);
    // Zip64 extra (id 1): 8-byte values for those of the three fields that read 0xffffffff, in order.
    for (let e = o + 46 + nameLen; e + 4 <= o + 46 + nameLen + extraLen;) {
      const id = u16(bytes, e);
      const len = u16(bytes, e + 2);
      if (id === 1) {
        let f = e + 4;
        if (size === 0xffffffff && f + 8 <= e + 4 + len) { size = u64(bytes, f); f += 8; }
        if (compressedSize === 0xffffffff && f + 8 <= e + 4 + len) { compressedSize = u64(bytes, f); f += 8; }
        if (localOffset === 0xffffffff && f + 8 <= e + 4 + len) { localOffset = u64(bytes, f); }
      }
      e += 4 + len;
    }
    out.push({ name, method, compressedSize, size, localOffset });
    o += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** The bytes of one entry, inflated when deflated; never more than its declared size. */
export function zipRead(bytes: Uint8Array, e: ZipEntry, inflate: InflateRaw): Uint8Array {
  const o = e.localOffset;
  if (o + 30 > bytes.length || u32(bytes, o) !== LOCAL) throw new KprofFormatError(`The .npz entry ${JSON.stringify(e.name)} has no local header where the directory says`);
  const data = o + 30 + u16(bytes, o + 26) + u16(bytes, o + 28);
  if (data + e.compressedSize > bytes.length) throw new KprofFormatError(`The .npz entry ${JSON.stringify(e.name)} is cut off`);
  if (e.size > MAX_BUFFER_BYTES) throw new KprofFormatError(`The .npz entry ${JSON.stringify(e.name)} is ${e.size} bytes, over the ${MAX_BUFFER_BYTES} read`);
  const raw = bytes.subarray(data, data + e.compressedSize);
  if (e.method === 0) {
    if (e.compressedSize !== e.size) throw new KprofFormatError(`The .npz entry ${JSON.stringify(e.name)} is stored but its two sizes differ`);
    return raw;
  }
  if (e.method !== 8) throw new KprofFormatError(`The .npz entry ${JSON.stringify(e.name)} uses compression method ${e.method}; stored and deflated are read`);
  if (e.size > MAX_INFLATED_BYTES) {
    throw new KprofFormatError(`The .npz entry ${JSON.stringify(e.name)} inflates to ${e.size} bytes, over the ${MAX_INFLATED_BYTES} (512 MiB) a compressed entry is inflated to; save the buffer uncompressed (np.save, or np.savez) to read it up to 2 GiB`);
  }
  let out: Uint8Array;
  try {
    out = inflate(raw, e.size);
  } catch (err) {
    throw new KprofFormatError(`The .npz entry ${JSON.stringify(e.name)} does not inflate: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (out.length !== e.size) throw new KprofFormatError(`The .npz entry ${JSON.stringify(e.name)} inflates to ${out.length} bytes, not the ${e.size} its directory says`);
  return out;
}
