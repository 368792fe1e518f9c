// A `.npz` (numpy.savez): a zip of `.npy` files. The buffer is the entry `prof`, else the only
// integer array; event names come from an optional `names` array of strings.
import { KprofFormatError } from './errors';
import { MAX_EVENTS } from './names';
import { readNpy, readNpyHeader, shapeText } from './npy';
import type { ProfBuffer } from './words';
import { zipEntries, zipRead, type InflateRaw } from './zip';

export interface NpzContents {
  launches: ProfBuffer[];
  /** The `names` array when there is one. */
  names?: string[];
  /** The key of the buffer in the archive. */
  key: string;
}

export function readNpz(bytes: Uint8Array, inflate: InflateRaw): NpzContents {
  const entries = zipEntries(bytes).filter((e) => e.name.endsWith('.npy'));
  const key = (name: string) => name.slice(0, -4);
  let buffer = entries.find((e) => key(e.name) === 'prof');
  if (!buffer) {
    const ints = entries.filter((e) => key(e.name) !== 'names' && isWordArray(zipRead(bytes, e, inflate)));
    if (ints.length !== 1) {
      throw new KprofFormatError(ints.length
        ? `The .npz holds ${ints.length} integer arrays (${ints.slice(0, 5).map((e) => JSON.stringify(key(e.name))).join(', ')}) and none is named "prof"`
        : 'The .npz holds no uint64/int64 array (the buffer is read from the key "prof" or the only integer array)');
    }
    buffer = ints[0];
  }
  const launches = readNpy(zipRead(bytes, buffer, inflate));
  const namesEntry = entries.find((e) => key(e.name) === 'names');
  const names = namesEntry ? readNames(zipRead(bytes, namesEntry, inflate)) : undefined;
  return { launches, names, key: key(buffer.name) };
}

function isWordArray(npy: Uint8Array): boolean {
  try {
    const d = readNpyHeader(npy).descr;
    return d === '<u8' || d === '<i8';
  } catch {
    return false;
  }
}

/** A 1-D array of strings: `<U n` (UTF-32), or `|S n` (bytes, read as latin-1). Object arrays are pickles: refused. */
export function readNames(npy: Uint8Array): string[] {
  const h = readNpyHeader(npy);
  const d = h.descr;
  if (d.endsWith('O')) throw new KprofFormatError('The .npz "names" array holds Python objects (pickled); it is refused, never unpickled: save it with np.array(names, dtype=str)');
  if (h.shape.length !== 1) throw new KprofFormatError(`The .npz "names" array has shape ${shapeText(h.shape)}; it must be 1-D`);
  const unicode = d === '<U' || /^<U\d{1,6}$/.test(d);
  const bytesKind = /^[|]S\d{1,6}$/.test(d);
  if (!unicode && !bytesKind) throw new KprofFormatError(`The .npz "names" array has dtype ${JSON.stringify(d.slice(0, 40))}; it must hold strings (<U or |S)`);
  const width = Number(d.slice(2)) * (unicode ? 4 : 1);
  const n = h.shape[0];
  if (!Number.isFinite(n) || h.dataOffset + n * width > npy.length) throw new KprofFormatError(`The .npz "names" array is cut off (shape ${shapeText(h.shape)})`);
  const out: string[] = [];
  // Event indices have 10 bits: names past 1024 can never be used.
  const shown = Math.min(n, MAX_EVENTS);
  for (let i = 0; i < shown; i++) {
    const at = h.dataOffset + i * width;
    let s = '';
    if (unicode) {
      for (let j = 0; j < width; j += 4) {
        const cp = (npy[at + j] | (npy[at + j + 1] << 8) | (npy[at + j + 2] << 16) | (npy[at + j + 3] << 24)) >>> 0;
        if (cp === 0) break;
        s += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
      }
    } else {
      // numpy's bytes strings: read as latin-1 (names are ASCII in practice).
      for (let j = at; j < at + width && npy[j] !== 0; j++) s += String.fromCharCode(npy[j]);
    }
    out.push(s);
  }
  return out;
}
