/** The names Perfetto's tools give protobuf traces (`perfetto -o`, record_android_trace, the UI's download), gzipped too. */
export const PERFETTO_NAME = /\.(perfetto-trace|pftrace|perfetto|perfetto\.trace)(\.gz)?$/i;

/** A varint at `b[p..)`: value and the index after it, undefined when cut or over 10 bytes. */
function varint(b: Uint8Array, p: number): [number, number] | undefined {
  let v = 0, mul = 1;
  for (let i = 0; i < 10 && p < b.length; i++) {
    const c = b[p++];
    v += (c & 0x7f) * mul;
    mul *= 128;
    if (!(c & 0x80)) return [v, p];
  }
  return undefined;
}

/** Whether `b[s, e)` is a run of well-formed fields (one level: tags, varints, lengths that fit). */
function wellFormed(b: Uint8Array, s: number, e: number): boolean {
  let p = s;
  while (p < e) {
    const t = varint(b, p);
    if (!t || t[1] > e) return false;
    const wire = t[0] % 8;
    if (t[0] < 8 || wire === 3 || wire === 4 || wire > 5) return false;
    p = t[1];
    if (wire === 0) {
      const v = varint(b, p);
      if (!v) return false;
      p = v[1];
    } else if (wire === 1) p += 8;
    else if (wire === 5) p += 4;
    else {
      const l = varint(b, p);
      if (!l) return false;
      p = l[1] + l[0];
    }
  }
  return p === e;
}

/** Printable text (ASCII and UTF-8 lead/continuation bytes, tab, line ends). */
function isText(b: Uint8Array): boolean {
  for (const c of b) if (c < 9 || (c > 13 && c < 32) || c === 127) return false;
  return true;
}

/**
 * Whether a file is a Perfetto protobuf trace, from its name and its first bytes (as many as the
 * caller read: 64 KB is plenty). By content: a `Trace` begins with field 1, length-delimited (byte
 * 0x0a), a sane length, and the first packet — where the head holds it whole — is a run of
 * well-formed fields followed by the next packet's 0x0a or the end; text never passes (a file
 * starting with a blank line also begins with 0x0a). By name: the usual names, unless the bytes
 * are plainly text (a damaged trace is then the reader's to report); a gzip stream (1f 8b) under such a name too.
 */
export function looksLikePerfettoProto(name: string, head: Uint8Array): boolean {
  const byName = PERFETTO_NAME.test(name);
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return byName;
  if (head.length === 0) return byName;
  if (head[0] !== 0x0a || isText(head.subarray(0, Math.min(head.length, 4096)))) return false;
  // Named as a trace: taken, so that a damaged one is reported by the reader rather than refused.
  if (byName) return true;
  const len = varint(head, 1);
  if (!len) return false;
  const [size, body] = len;
  if (size === 0 || size > 256 * 1024 * 1024) return false;
  // A first packet longer than the head: its beginning must at least not be text (checked above).
  if (body + size > head.length) return head.length >= 4096;
  if (!wellFormed(head, body, body + size)) return false;
  const next = body + size;
  return next === head.length || head[next] === 0x0a;
}
