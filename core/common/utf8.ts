/**
 * Whether `b[s, e)` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past
 * U+10FFFF). Bytes that are not would make a copy of them invalid JSON text: a writer that copies
 * source bytes checks them first. ASCII, the bulk of any trace, costs one comparison a byte.
 */
export function isUtf8(b: Uint8Array, s: number, e: number): boolean {
  let i = s;
  while (i < e) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number, lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return false;
    if (i + n >= e) return false;
    const b1 = b[i + 1];
    if (b1 < lo || b1 > hi) return false;
    for (let k = 2; k <= n; k++) if ((b[i + k] & 0xc0) !== 0x80) return false;
    i += n + 1;
  }
  return true;
}
