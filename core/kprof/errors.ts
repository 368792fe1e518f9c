/** A buffer file that cannot be read as a profiler buffer; the message says why, for a person. */
export class KprofFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KprofFormatError';
  }
}

/** The largest buffer read (bytes): 256M records, twice the 16M-record case ×8. */
export const MAX_BUFFER_BYTES = 2 ** 31;
