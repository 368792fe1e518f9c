import { closeSync, openSync, writeSync } from 'node:fs';
import { constants, crc32, deflateRawSync } from 'node:zlib';

const FLUSH_AT = 1 << 20;

/**
 * A file written synchronously in 1 MB pieces, gzipped when its name ends in `.gz`. Synchronous so
 * a producer called back line by line cannot outrun the disk (an async stream would buffer what
 * it cannot write yet: the whole output, on a slow disk). The gzip is one member: each piece is
 * deflated on its own and sync-flushed, so the pieces join into one DEFLATE stream, closed by a
 * final empty block, with the CRC-32 and size in the trailer.
 */
export class SyncSink {
  private readonly fd: number;
  private parts: string[] = [];
  private size = 0;
  private crc = 0;
  private total = 0;
  bytesWritten = 0;

  constructor(file: string, private readonly gzip = /\.gz$/i.test(file)) {
    this.fd = file === '-' ? 1 : openSync(file, 'w');
    // gzip header: magic, deflate, no flags, no mtime, no extra flags, OS unknown.
    if (this.gzip) this.out(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]));
  }

  write(s: string): void {
    if (!s) return;
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= FLUSH_AT) this.flush();
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
    if (!this.parts.length) return;
    const b = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.size = 0;
    if (!this.gzip) return this.out(b);
    this.crc = crc32(b, this.crc);
    this.total = (this.total + b.length) % 0x100000000;
    this.out(deflateRawSync(b, { finishFlush: constants.Z_SYNC_FLUSH }));
  }

  private out(b: Buffer): void {
    for (let at = 0; at < b.length;) at += writeSync(this.fd, b, at, b.length - at);
    this.bytesWritten += b.length;
  }
}
