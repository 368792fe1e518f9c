import { closeSync, openSync, writeSync } from 'node:fs';
import { zlib } from './zlib';

const SIZE = 1 << 20;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));
/**
 * Deflate level 1: on a 1M-event Chrome export (320 MB of JSON) it costs about 1.2 s of CPU where
 * the default (6) costs 3.5 s, for output 1.4× as big (12 % of the JSON instead of 8 %).
 */
const LEVEL = 1;

/**
 * A file written synchronously in 1 MB pieces, gzipped when its name ends in `.gz`. Synchronous so
 * a producer called back line by line cannot outrun the disk (an async stream would buffer what
 * it cannot write yet: the whole output, on a slow disk). Text is encoded straight into the
 * buffer and bytes are copied, so nothing is joined. The gzip is one member: each piece is
 * deflated on its own and sync-flushed, so the pieces join into one DEFLATE stream, closed by a
 * final empty block, with the CRC-32 and size in the trailer.
 */
export class SyncSink {
  private readonly fd: number;
  private readonly buf = Buffer.allocUnsafe(SIZE);
  private pos = 0;
  private crc = 0;
  private total = 0;
  bytesWritten = 0;

  constructor(file: string, private readonly gzip = /\.gz$/i.test(file)) {
    this.fd = file === '-' ? 1 : openSync(file, 'w');
    // gzip header: magic, deflate, no flags, no mtime, XFL 4 (the fastest level), OS unknown.
    if (this.gzip) this.out(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 0xff]));
  }

  text(s: string): void {
    const n = s.length;
    // The exporter's many short pieces: encoded char by char (no native call: an arrow's name holds
    // a '→', and a native write per arrow cost more than the rest of its text); surrogates go below.
    if (n <= 64 && n * 3 <= SIZE - this.pos) {
      const buf = this.buf;
      let p = this.pos, k = 0;
      for (; k < n; k++) {
        const c = s.charCodeAt(k);
        if (c < 0x80) buf[p++] = c;
        else if (c < 0x800) {
          buf[p++] = 0xc0 | (c >> 6);
          buf[p++] = 0x80 | (c & 0x3f);
        } else if (c < 0xd800 || c > 0xdfff) {
          buf[p++] = 0xe0 | (c >> 12);
          buf[p++] = 0x80 | ((c >> 6) & 0x3f);
          buf[p++] = 0x80 | (c & 0x3f);
        } else break;
      }
      if (k === n) {
        this.pos = p;
        return;
      }
    }
    if (!s) return;
    // At most 3 bytes per UTF-16 unit.
    if (s.length * 3 > SIZE - this.pos) {
      this.flush();
      if (s.length * 3 > SIZE) return this.piece(Buffer.from(s, 'utf8'));
    }
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  /** `String(x)`'s text, written as digits for integers and for the exporter's µs (whole ps). */
  number(x: number): void {
    if (SIZE - this.pos < 32) this.flush();
    const buf = this.buf;
    let p = this.pos;
    let v = x;
    if (v < 0) {
      buf[p++] = 45;
      v = -v;
    }
    if (!(v < 1e9)) {
      if (!(Number.isInteger(v) && v < 1e15)) return this.text(String(x));
      this.pos = digits(buf, p, v);
      return;
    }
    // Below 1e9 both parts fit in int32 arithmetic.
    let whole = v, frac = 0;
    if (!Number.isInteger(v)) {
      // A multiple of 1e-6 below 1e9 prints as its 6 decimals without trailing zeros (no shorter decimal is as close).
      const ps = Math.round(v * 1e6);
      if (ps / 1e6 !== v) return this.text(String(x));
      whole = Math.floor(v);
      frac = ps - whole * 1e6;
      if (!(frac > 0 && frac < 1e6)) return this.text(String(x));
    }
    let w = whole | 0;
    const len = w < 10 ? 1 : w < 100 ? 2 : w < 1e3 ? 3 : w < 1e4 ? 4 : w < 1e5 ? 5 : w < 1e6 ? 6 : w < 1e7 ? 7 : w < 1e8 ? 8 : 9;
    for (let k = p + len - 1; k >= p; k--) {
      const q = (w / 10) | 0;
      buf[k] = 48 + w - q * 10;
      w = q;
    }
    p += len;
    if (frac) {
      let f = frac | 0, n = 6;
      while (f % 10 === 0) {
        f = (f / 10) | 0;
        n--;
      }
      buf[p] = 46;
      for (let k = p + n; k > p; k--) {
        const q = (f / 10) | 0;
        buf[k] = 48 + f - q * 10;
        f = q;
      }
      p += n + 1;
    }
    this.pos = p;
  }

  bytes(b: Uint8Array, s: number, e: number): void {
    const n = e - s;
    if (n > SIZE - this.pos) {
      this.flush();
      if (n > SIZE) return this.piece(b.subarray(s, e));
    }
    this.buf.set(b.subarray(s, e), this.pos);
    this.pos += n;
  }

  write(s: string): void {
    this.text(s);
  }

  close(): void {
    this.flush();
    if (this.gzip) {
      this.out(zlib().deflateRawSync(Buffer.alloc(0), { finishFlush: zlib().constants.Z_FINISH }));
      const t = Buffer.alloc(8);
      t.writeUInt32LE(this.crc >>> 0, 0);
      t.writeUInt32LE(this.total >>> 0, 4);
      this.out(t);
    }
    if (this.fd !== 1) closeSync(this.fd);
  }

  private flush(): void {
    if (this.pos === 0) return;
    const b = this.buf.subarray(0, this.pos);
    this.piece(b);
    this.pos = 0;
  }

  /** Bytes in output order: written, or deflated and written. */
  private piece(b: Uint8Array): void {
    if (!this.gzip) return this.out(b);
    this.crc = zlib().crc32(b, this.crc);
    this.total = (this.total + b.length) % 0x100000000;
    this.out(zlib().deflateRawSync(b, { level: LEVEL, finishFlush: zlib().constants.Z_SYNC_FLUSH }));
  }

  private out(b: Uint8Array): void {
    for (let at = 0; at < b.length;) {
      try {
        at += writeSync(this.fd, b, at, b.length - at);
      } catch (e) {
        // stdout as a non-blocking pipe whose reader is behind: wait for it, as a blocking write would.
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
        Atomics.wait(PAUSE, 0, 0, 5);
      }
    }
    this.bytesWritten += b.length;
  }
}

/** The decimal digits of a non-negative integer below 1e15 at `p`; returns the end. */
function digits(buf: Uint8Array, p: number, n: number): number {
  if (n < 10) {
    buf[p] = 48 + n;
    return p + 1;
  }
  let len = 1;
  for (let t = n; t >= 10; t = Math.floor(t / 10)) len++;
  for (let k = p + len - 1; k >= p; k--) {
    const q = Math.floor(n / 10);
    buf[k] = 48 + n - q * 10;
    n = q;
  }
  return p + len;
}
