// Names (JSON keys, enum strings) recognised byte by byte in UTF-8 text, for the byte-level reader
// of flat JSON objects (flatObject.ts), which walks tries made here for keys and for a tag's values.

/** A name's bytes (the names are plain printable ASCII). */
export const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

/**
 * A trie walked byte by byte while the scanner checks a string anyway, so a key or an event type is
 * known when its closing quote is reached, with no second pass comparing bytes. Bytes map to a
 * small alphabet (the characters names use; 0 for any other), which keeps the table in L1 cache.
 * State 1 is the root; 0 means no name continues this way.
 */
export interface ByteTrie {
  /** Alphabet class of each byte 0..255 (0: in no name). */
  cls: Uint8Array;
  /** Classes per state: the next state for byte `c` of state `s` is `next[s * width + cls[c]]`. */
  width: number;
  next: Int16Array;
  /** `value + 1` of the name ending at each state, 0 where none ends. */
  accept: Int16Array;
}

export function byteTrie(names: readonly string[], values?: readonly number[]): ByteTrie {
  const cls = new Uint8Array(256);
  let width = 1;
  for (const name of names) {
    for (let k = 0; k < name.length; k++) {
      const c = name.charCodeAt(k);
      if (c < 32 || c > 126 || c === 34 || c === 92) throw new Error(`name ${name} is not plain printable ASCII`);
      if (cls[c] === 0) cls[c] = width++;
    }
  }
  const size = 2 + names.reduce((n, x) => n + x.length, 0);
  if (size > 32767) throw new Error('too many names for the trie');
  const next = new Int16Array(size * width);
  const accept = new Int16Array(size);
  let states = 2;
  names.forEach((name, value) => {
    let st = 1;
    for (let k = 0; k < name.length; k++) {
      const at = st * width + cls[name.charCodeAt(k)];
      if (next[at] === 0) next[at] = states++;
      st = next[at];
    }
    accept[st] = (values ? values[value] : value) + 1;
  });
  return { cls, width, next, accept };
}

/** Whether bytes `[s, e)` of `b` are `want`. */
export function sameBytes(b: Uint8Array, s: number, e: number, want: Uint8Array): boolean {
  if (e - s !== want.length) return false;
  for (let k = 0; k < want.length; k++) if (b[s + k] !== want[k]) return false;
  return true;
}
