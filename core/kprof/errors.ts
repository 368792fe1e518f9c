/** A buffer file that cannot be read as a profiler buffer; the message says why, for a person. */
export class KprofFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KprofFormatError';
  }
}

/** The largest buffer read (bytes): 256M records, twice the 16M-record case ×8. */
export const MAX_BUFFER_BYTES = 2 ** 31;

/**
 * The largest buffer file read (bytes): its buffer and up to 1 MB of header and zip directory, but
 * under 2 GiB: Node reads no file of 2 GiB or more at once (`readFileSync` stops at 2^31 − 1 bytes),
 * so a file of exactly 2 GiB passed a check against 2^31 + 1 MB and then failed with Node's own
 * message, without the file's name (issue #29, 15).
 */
export const MAX_FILE_BYTES = Math.min(MAX_BUFFER_BYTES + (1 << 20), 2 ** 31 - 1);

/** What is said of a buffer file over MAX_FILE_BYTES (after its name). */
export function fileTooLarge(size: number): string {
  return `the file is ${size} bytes, over the ${MAX_FILE_BYTES} bytes (2 GiB − 1) a buffer file may have`;
}

/**
 * The largest `.npz` entry inflated (bytes, 64M records): a deflated entry costs memory its file
 * does not show (1.9 MB of zeros inflate to 1.9 GB, 4 GB of RAM decoded), so it is refused from
 * its directory's size before anything is inflated. Stored entries (`np.savez`) and `.npy` files
 * are read in place, up to MAX_BUFFER_BYTES.
 */
export const MAX_INFLATED_BYTES = 512 << 20;
