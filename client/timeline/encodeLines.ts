/**
 * A document's lines as UTF-8 bytes joined by '\n', written straight from the editor's lines into
 * one buffer of the exact size: the only copy of the text a rebuild makes, transferred to the
 * worker rather than cloned (`getText()` would make a full string, and posting it a second copy).
 */
export function encodeLines(count: number, line: (i: number) => string): Uint8Array {
  const lines = new Array<string>(count);
  let size = Math.max(0, count - 1);
  for (let i = 0; i < count; i++) size += Buffer.byteLength((lines[i] = line(i)), 'utf8');
  const buf = new Uint8Array(size);
  const enc = new TextEncoder();
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (i > 0) buf[at++] = 10;
    at += enc.encodeInto(lines[i], buf.subarray(at)).written;
  }
  return buf;
}
