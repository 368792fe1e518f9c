import type { InflateRaw as Inflate } from 'node:zlib';
import { zlib } from './zlib';

/** How a gzip stream ended, filled in by `gunzipMembers` when the stream is done. */
export interface GzipEnd {
  /** The data ends inside a member: what decoded before the cut was delivered. */
  truncated: boolean;
  /** Offset in the compressed file of bytes after the last member that are not a member. */
  garbageAt: number | undefined;
}

// Input handed to the inflater at a time: deflate expands at most ~1032:1, so one piece yields at
// most ~17 MB of output, which is all that is ever buffered.
const PIECE = 16 << 10;

/**
 * Decompresses a gzip file member by member, with zlib's raw inflater and our own header parsing,
 * because Node's gunzip stream throws away the output of the last write when a member is cut off
 * or followed by garbage. Like `gzip -t`: concatenated members are one stream, zero padding after
 * the last member is fine, other trailing bytes are reported (`end.garbageAt`) and ignored, and a
 * cut-off member keeps what decoded (`end.truncated`). Not gzip at all throws, as gunzip does.
 */
export async function* gunzipMembers(source: AsyncIterable<Buffer>, end: GzipEnd): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  let inflater: Inflate | undefined;
  try {
    yield* members();
  } finally {
    // A reader that stops early (or throws) closes the inflater and the file too.
    inflater?.destroy();
    await it.return?.();
  }

  async function* members(): AsyncGenerator<Buffer> {
    let pending: Buffer = Buffer.alloc(0);
    let offset = 0; // file offset of pending[0]
    let done = false;
    const pull = async (): Promise<boolean> => {
      if (done) return false;
      const r = await it.next();
      if (r.done) {
        done = true;
        return false;
      }
      pending = pending.length ? Buffer.concat([pending, r.value]) : r.value;
      return true;
    };
    const drop = (n: number) => {
      pending = pending.subarray(n);
      offset += n;
    };
    for (let member = 0; ; member++) {
      let h = headerLength(pending);
      while (h === NEED_MORE && (await pull())) h = headerLength(pending);
      if (member > 0 && (h === NOT_GZIP || h === NEED_MORE)) {
        // Padding with zeros is common (tape blocks); anything else is garbage, as gzip -t says.
        while (isZeros(pending)) {
          drop(pending.length);
          if (!(await pull())) return;
        }
        if (pending.length) end.garbageAt = offset + firstNonZero(pending);
        return;
      }
      if (h === NOT_GZIP) throw new Error(pending.length < 2 ? 'unexpected end of file' : 'incorrect header check');
      if (h === NEED_MORE) {
        end.truncated = true;
        return;
      }
      drop(h);
      const inf = (inflater = zlib().createInflateRaw({ finishFlush: zlib().constants.Z_SYNC_FLUSH }));
      const out: Buffer[] = [];
      let failed: Error | undefined;
      let wake = () => {};
      inf.on('data', (b: Buffer) => out.push(b));
      // 'end' comes after the last 'data'; an error ends the member too (and may come instead of a callback).
      const closed = new Promise<void>((resolve) => inf.on('end', resolve).on('error', (e: Error) => {
        failed = e;
        wake();
        resolve();
      }));
      const settle = (start: (cb: () => void) => void) => new Promise<void>((resolve) => {
        wake = resolve;
        start(() => resolve());
      });
      let fed = 0; // bytes of this member's deflate data the inflater took
      let ended = false;
      while (!ended && !failed) {
        if (pending.length === 0 && !(await pull())) break;
        const piece = pending.subarray(0, PIECE);
        await settle((cb) => inf.write(piece, cb));
        // The inflater takes less than it was given only when the deflate data ended: the rest stays
        // in `pending` for the trailer and the next member.
        const took = inf.bytesWritten - fed;
        ended = took < piece.length;
        fed += took;
        drop(took);
        for (const b of out.splice(0)) yield b;
      }
      if (!failed) {
        inf.end();
        await closed;
        for (const b of out.splice(0)) yield b;
      }
      inf.destroy();
      // Corrupt deflate data or a cut: what decoded is kept, the rest cannot be read.
      if (failed || !ended) {
        end.truncated = true;
        return;
      }
      // The trailer (CRC32, size) closes the member.
      while (pending.length < 8 && (await pull()));
      if (pending.length < 8) {
        end.truncated = true;
        return;
      }
      drop(8);
    }
  }
}

const NEED_MORE = -1;
const NOT_GZIP = -2;

/** Length of the gzip member header at the start of `b`, or NEED_MORE / NOT_GZIP (both negative). */
export function headerLength(b: Buffer): number {
  if (b.length >= 1 && b[0] !== 0x1f) return NOT_GZIP;
  if (b.length >= 2 && b[1] !== 0x8b) return NOT_GZIP;
  if (b.length >= 3 && b[2] !== 8) return NOT_GZIP;
  if (b.length < 10) return NEED_MORE;
  const flags = b[3];
  let at = 10;
  if (flags & 4) {
    if (b.length < at + 2) return NEED_MORE;
    at += 2 + b.readUInt16LE(at);
  }
  for (const bit of [8, 16]) {
    if (!(flags & bit)) continue;
    const z = b.indexOf(0, at);
    if (z < 0) return NEED_MORE;
    at = z + 1;
  }
  if (flags & 2) at += 2;
  return b.length < at ? NEED_MORE : at;
}

function firstNonZero(b: Buffer): number {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return i;
  return b.length;
}

const isZeros = (b: Buffer) => firstNonZero(b) === b.length;
