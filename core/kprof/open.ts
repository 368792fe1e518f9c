import { KprofFormatError } from './errors';
import { isNpy, readNpy } from './npy';
import { readNpz } from './npz';
import { readBin, type ProfBuffer } from './words';
import { isZip, type InflateRaw } from './zip';

export interface OpenedBuffer {
  container: 'npy' | 'npz' | 'bin';
  /** One buffer per launch (a 2-D `.npy` has several). */
  launches: ProfBuffer[];
  /** Names stored with the buffer (the `.npz` `names` array). */
  names?: string[];
}

/** The container is told by its first bytes; the file name only decides what a mismatch means. */
export function openBuffer(fileName: string, bytes: Uint8Array, inflate: InflateRaw): OpenedBuffer {
  const lower = fileName.toLowerCase();
  if (bytes.length === 0) throw new KprofFormatError('The file is empty');
  if (isNpy(bytes)) return { container: 'npy', launches: readNpy(bytes) };
  if (isZip(bytes)) {
    const z = readNpz(bytes, inflate);
    return { container: 'npz', launches: z.launches, names: z.names };
  }
  if (lower.endsWith('.npy')) throw new KprofFormatError('Not a .npy file: it does not start with \\x93NUMPY');
  if (lower.endsWith('.npz')) throw new KprofFormatError('Not a .npz file: it does not start with a zip header');
  return { container: 'bin', launches: [readBin(bytes)] };
}
