import { closeSync, openSync, readSync } from 'node:fs';
import type { PartForm } from '../../core/chrome/parts';

// Where a big Chrome trace may be cut into parts read by several threads (core/chrome/parts.ts):
// at what its layout says are event starts. Only a guess from the bytes: each reader of the text
// before a part says whether it really ended between two events there.

/** How far past a split point the next event start is looked for before that split is dropped. */
const MAX_SEARCH = 4 << 20;
const HEAD = 1 << 16;

/**
 * How the file's events are laid out, from its head: its form, and the bytes that come just before
 * an event's `{` — a line break and the indent of the first event when it starts a line (Kineto's
 * and Python's pretty-printed files), else `},{`. Undefined when the head is not a Chrome trace's.
 */
function layoutOf(fd: number): { form: PartForm; before: Buffer } | undefined {
  const buf = Buffer.alloc(HEAD);
  const head = buf.toString('latin1', 0, readSync(fd, buf, 0, HEAD, 0));
  const m = /^(?:\xef\xbb\xbf)?\s*([[{])/.exec(head);
  if (!m) return undefined;
  const form: PartForm = m[1] === '[' ? 'array' : 'object';
  let open = m.index + m[0].length - 1;
  if (form === 'object') {
    const k = head.indexOf('"traceEvents"');
    open = k < 0 ? -1 : head.indexOf('[', k);
  }
  if (open < 0) return undefined;
  // The first event, and what stands before it on its line.
  const first = /^\s*\{/.exec(head.slice(open + 1));
  if (!first) return undefined;
  const at = open + first[0].length;
  const line = Math.max(head.lastIndexOf('\n', at), head.lastIndexOf('\r', at));
  const indent = head.slice(line + 1, at);
  return { form, before: Buffer.from(line > open && /^[ \t]*$/.test(indent) ? `${head[line]}${indent}` : '},', 'latin1') };
}

/** The offset of the first `{` after `from` that follows `before` (blanks between for `},`), or -1. */
function nextStart(fd: number, from: number, size: number, before: Buffer): number {
  const buf = Buffer.allocUnsafe(1 << 16);
  const spaced = before.toString('latin1') === '},';
  for (let at = from; at < size && at < from + MAX_SEARCH; at += buf.length - 64) {
    const n = readSync(fd, buf, 0, buf.length, at);
    if (n <= before.length) return -1;
    for (let i = buf.subarray(0, n).indexOf(before); i >= 0; i = buf.subarray(0, n).indexOf(before, i + 1)) {
      let k = i + before.length;
      if (spaced) while (k < n && (buf[k] === 32 || buf[k] === 10 || buf[k] === 13 || buf[k] === 9)) k++;
      if (k < n && buf[k] === 0x7b) return at + k;
    }
  }
  return -1;
}

/** Where the parts start: the event start next after each share of the file (the first `first`, the others 1), distinct. */
function partStarts(fd: number, size: number, parts: number, first: number, before: Buffer): number[] {
  const out: number[] = [];
  const total = first + parts - 1;
  for (let k = 1; k < parts; k++) {
    const s = nextStart(fd, Math.floor(((first + k - 1) * size) / total), size, before);
    if (s > (out[out.length - 1] ?? 0) && s < size) out.push(s);
  }
  return out;
}

/**
 * A plain Chrome trace of `size` bytes cut into `parts` at event starts, the first part `first`
 * times the others' share: its form and the parts' starts after the first; undefined when its head
 * shows no layout or no start was found.
 */
export function chromeParts(file: string, size: number, parts: number, first: number): { form: PartForm; starts: number[] } | undefined {
  const fd = openSync(file, 'r');
  try {
    const layout = layoutOf(fd);
    if (!layout) return undefined;
    const starts = partStarts(fd, size, parts, first, layout.before);
    return starts.length ? { form: layout.form, starts } : undefined;
  } finally {
    closeSync(fd);
  }
}
