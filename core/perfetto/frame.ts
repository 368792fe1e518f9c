import { TRACE_PACKET } from './fields';

/** A packet is read whole into memory: one larger than this is skipped (its bytes are never held). */
export const MAX_PACKET_BYTES = 64 * 1024 * 1024;

/** Problems of the framing, with the byte offset of the field they are about. */
export interface FrameProblem {
  kind: 'truncated' | 'too-large' | 'bad-framing';
  offset: number;
  /** The length the field claims, where it has one. */
  claimed?: number;
}

/** Receives each `TracePacket` whole: `bytes` is valid only during the call. */
export type OnPacket = (bytes: Uint8Array, offset: number, bodyOffset: number) => void;

/** A varint at `b[p..e)`: its value (exact up to 2^53) and the index after it; undefined when it runs past `e`. */
function varint(b: Uint8Array, p: number, e: number): [number, number] | undefined {
  let v = 0;
  let mul = 1;
  for (let i = 0; i < 10; i++) {
    if (p >= e) return undefined;
    const c = b[p++];
    v += (c & 0x7f) * mul;
    mul *= 128;
    if (!(c & 0x80)) return [v, p];
  }
  return [Number.POSITIVE_INFINITY, p];
}

/**
 * Splits the bytes of a `Trace` (repeated field 1, length-delimited) into its packets as they come,
 * in pieces of any size: a packet inside one piece is handed on as a view of it, one across pieces
 * is copied together, and nothing else is kept, so a trace of any size streams in the memory of
 * its largest packet. Other top-level fields are skipped by their wire type.
 */
export class PacketSplitter {
  /** Bytes of the file read so far. */
  offset = 0;
  readonly problems: FrameProblem[] = [];
  packets = 0;
  /** A header cut by the end of a piece (at most a tag and a length: 20 bytes). */
  private head = new Uint8Array(0);
  /** The packet being gathered across pieces, how far, and where it began. */
  private body: Uint8Array | undefined;
  private bodyAt = 0;
  private bodyStart = 0;
  private bodyOffset = 0;
  /** Bytes still to skip (a field not read, a packet over the limit) and where it began. */
  private skip = 0;
  private skipStart = 0;
  private skipClaimed = 0;
  private stopped = false;

  constructor(private readonly onPacket: OnPacket, private readonly maxPacket = MAX_PACKET_BYTES) {}

  feed(piece: Uint8Array): void {
    // A plain view: a Node Buffer's subarray makes a Buffer, several times dearer per packet.
    const chunk = piece.constructor === Uint8Array ? piece : new Uint8Array(piece.buffer, piece.byteOffset, piece.length);
    let p = 0;
    const n = chunk.length;
    while (p < n && !this.stopped) {
      if (this.skip > 0) {
        const k = Math.min(this.skip, n - p);
        this.skip -= k;
        p += k;
        this.offset += k;
        continue;
      }
      if (this.body) {
        const k = Math.min(this.body.length - this.bodyAt, n - p);
        this.body.set(chunk.subarray(p, p + k), this.bodyAt);
        this.bodyAt += k;
        p += k;
        this.offset += k;
        if (this.bodyAt === this.body.length) {
          const b = this.body;
          this.body = undefined;
          this.emit(b, this.bodyStart, this.bodyOffset);
        }
        continue;
      }
      // A header: from the cut one and this piece's first bytes, or from this piece alone.
      let buf = chunk, s = p;
      const cut = this.head.length;
      if (cut) {
        buf = new Uint8Array(cut + Math.min(24, n - p));
        buf.set(this.head);
        buf.set(chunk.subarray(p, p + buf.length - cut), cut);
        s = 0;
      }
      const e = cut ? buf.length : n;
      const start = this.offset - cut;
      const tag = varint(buf, s, e);
      const wire = tag ? tag[0] % 8 : 0;
      const field = tag ? Math.floor(tag[0] / 8) : 0;
      // Tag, and for a varint its value, for a length-delimited field its length.
      const value = tag && (wire === 0 || wire === 2) ? varint(buf, tag[1], e) : undefined;
      const headerEnd = !tag ? undefined : wire === 0 || wire === 2 ? value?.[1] : tag[1];
      if (headerEnd === undefined) {
        // Cut by the end of the piece: keep it for the next one.
        if (e - s > 20) return this.fail('bad-framing', start);
        this.head = buf.slice(s, e);
        this.offset += n - p;
        return;
      }
      const used = headerEnd - s - cut;
      this.head = new Uint8Array(0);
      p += used;
      this.offset += used;
      if (field === 0 || wire === 3 || wire === 4 || wire > 5 || !Number.isFinite(tag![0])) return this.fail('bad-framing', start);
      if (wire !== 2) {
        // A scalar at the top level: not a packet, skipped.
        if (wire === 1 || wire === 5) this.startSkip(wire === 1 ? 8 : 4, start, 0);
        continue;
      }
      const len = value;
      const size = len![0];
      if (field !== TRACE_PACKET) {
        this.startSkip(size, start, size);
        continue;
      }
      if (size > this.maxPacket) {
        this.problems.push({ kind: 'too-large', offset: start, claimed: size });
        this.startSkip(size, start, size);
        continue;
      }
      if (n - p >= size) {
        const bodyAt = this.offset;
        this.offset += size;
        p += size;
        this.emit(chunk.subarray(p - size, p), start, bodyAt);
      } else {
        this.body = new Uint8Array(size);
        this.bodyAt = 0;
        this.bodyStart = start;
        this.bodyOffset = this.offset;
      }
    }
  }

  /** After the last piece: a packet or field cut by the end of the file is a problem. */
  end(): void {
    if (this.stopped) return;
    if (this.body) this.problems.push({ kind: 'truncated', offset: this.bodyStart, claimed: this.body.length });
    else if (this.skip > 0 && this.skipClaimed > 0) this.problems.push({ kind: 'truncated', offset: this.skipStart, claimed: this.skipClaimed });
    else if (this.head.length) this.problems.push({ kind: 'truncated', offset: this.offset - this.head.length });
    this.body = undefined;
    this.head = new Uint8Array(0);
    this.skip = 0;
    this.stopped = true;
  }

  private emit(b: Uint8Array, at: number, bodyAt: number): void {
    this.packets++;
    this.onPacket(b, at, bodyAt);
  }

  private startSkip(k: number, at: number, claimed: number): void {
    this.skip = k;
    this.skipStart = at;
    this.skipClaimed = claimed;
  }

  /** Bytes that are no protobuf field: nothing after them can be framed, so reading stops. */
  private fail(kind: 'bad-framing', at: number): void {
    this.problems.push({ kind, offset: at });
    this.stopped = true;
  }
}
