import { KprofFormatError, MAX_BUFFER_BYTES } from './errors';

/**
 * uint64 words as 32-bit halves, `lo` at `2i`, `hi` at `2i + 1`: decoding reads them without
 * BigInt or one object per record. One `ProfBuffer` per launch (a 2-D `.npy` holds several).
 */
export interface ProfBuffer {
  words: Uint32Array;
  /** Number of uint64 slots (`words.length / 2`). */
  slots: number;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Little-endian uint64 words from `byteLength` bytes at `offset` (copied when unaligned or on a big-endian host). */
export function wordsFromBytes(bytes: Uint8Array, offset: number, byteLength: number): Uint32Array {
  if (byteLength % 8 !== 0) throw new KprofFormatError(`The data is ${byteLength} bytes, not a whole number of 8-byte words`);
  if (byteLength > MAX_BUFFER_BYTES) throw new KprofFormatError(`The buffer is ${byteLength} bytes, over the ${MAX_BUFFER_BYTES} bytes read`);
  const start = bytes.byteOffset + offset;
  if (LITTLE_ENDIAN && start % 4 === 0) return new Uint32Array(bytes.buffer, start, byteLength / 4);
  const out = new Uint32Array(byteLength / 4);
  const src = bytes.subarray(offset, offset + byteLength);
  for (let i = 0, j = 0; i < out.length; i++, j += 4) {
    out[i] = (src[j] | (src[j + 1] << 8) | (src[j + 2] << 16) | (src[j + 3] << 24)) >>> 0;
  }
  return out;
}

/** A raw `.bin`: little-endian uint64 words, nothing else. */
export function readBin(bytes: Uint8Array): ProfBuffer {
  if (bytes.length === 0) throw new KprofFormatError('The file is empty');
  if (bytes.length % 8 !== 0) throw new KprofFormatError(`A raw buffer holds 8-byte words, but the file is ${bytes.length} bytes (${bytes.length % 8} left over): cut off, or not a uint64 buffer`);
  const words = wordsFromBytes(bytes, 0, bytes.length);
  return { words, slots: words.length / 2 };
}
