import { closeSync, openSync, writeSync } from 'node:fs';
import { constants, crc32, deflateRawSync } from 'node:zlib';

const SIZE = 1 << 20;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

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
    // gzip header: magic, deflate, no flags, no mtime, no extra flags, OS unknown.
    if (this.gzip) this.out(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]));
  }

  text(s: string): void {
    if (!s) return;
    // At most 3 bytes per UTF-16 unit.
    if (s.length * 3 > SIZE - this.pos) {
      this.flush();
      if (s.length * 3 > SIZE) return this.piece(Buffer.from(s, 'utf8'));
    }
    this.pos += this.buf.write(s, this.pos, 'utf8');
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
      this.out(deflateRawSync(Buffer.alloc(0), { finishFlush: constants.Z_FINISH }));
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
    this.crc = crc32(b, this.crc);
    this.total = (this.total + b.length) % 0x100000000;
    this.out(deflateRawSync(b, { finishFlush: constants.Z_SYNC_FLUSH }));
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
