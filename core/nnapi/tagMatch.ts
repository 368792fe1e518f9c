/**
 * The reference's tag regex (rules §3), `/B\|\d+\|.*\[([^\]]+)\]\[?([^\]])\]?/`, without a regex
 * engine. The regex backtracks: `.*` tries every `[` from the end and `[^\]]+` rescans the rest of
 * the line from each, for every `B|<n>|` it starts at — cubic on a line of `B|1|[` (7.6 KB took
 * 6 s). This scanner returns the same match (groups and indices) in one pass over the text.
 *
 * What the regex finds, read off its backtracking order:
 * - the leftmost `B|<digits>|` (its `\d+` has one way to reach the `|`) from which a match exists;
 * - `.*` is greedy and stops at a line terminator, so the bracket is the LAST `[` before the first
 *   terminator after that start at which the rest matches;
 * - `[^\]]+` (which does cross terminators) runs to the first `]` after the `[`, and has no other
 *   choice, since a shorter run is not followed by `]`;
 * - then one non-`]` character, preferring the one after an optional `[`, then an optional `]`.
 * A later start on the same stretch between terminators can only see fewer brackets, so once a
 * start fails the scan moves past that stretch: every character is visited a bounded number of times.
 * A mark without terminators (nearly all) is one stretch, scanned by native searches from `[` to
 * `[` (200 000 distinct marks: about 50 ms of CPU, the regex 36 ms; the mark cache spares most rows).
 */

export interface TagMatch {
  /** Where the whole match starts (`exec().index`) and ends. */
  index: number;
  end: number;
  /** Group 1, the tag inside the brackets: `[start, end)`. */
  tagStart: number;
  tagEnd: number;
  /** Group 2, the character after the tag: `[start, end)`. */
  nextStart: number;
}

let steps = 0;

/** Characters the last `matchTag` call examined (in loops and native searches), for tests that hold its cost to the text's length. */
export const lastTagScanSteps = (): number => steps;

const isTerminator = (c: number) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
const isDigit = (c: number) => c >= 48 && c <= 57;
const BAR = 124;
const OPEN = 91;
const CLOSE = 93;

export function matchTag(text: string): TagMatch | undefined {
  const n = text.length;
  steps = 0;
  // Marks almost never hold a terminator: then every stretch runs to the end, found natively.
  const clean = text.indexOf('\n') < 0 && text.indexOf('\r') < 0 && text.indexOf('\u2028') < 0 && text.indexOf('\u2029') < 0;
  steps += clean ? 4 * n : 0;
  // First `]` at or after `closeFrom`, found once and kept while the stretches move right.
  let closeFrom = -1;
  let closeAt = -1;
  let s = 0;
  while (s < n) {
    const found = text.indexOf('B|', s);
    if (found < 0) return undefined;
    steps += found - s + 1;
    s = found;
    let a = s + 2;
    while (a < n && isDigit(text.charCodeAt(a))) { a++; steps++; }
    if (a === s + 2 || a >= n || text.charCodeAt(a) !== BAR) {
      s++;
      continue;
    }
    a++;
    if (clean) return lastBracket(text, s, a);
    // The stretch `.*` may cover: [a, t).
    let t = a;
    while (t < n && !isTerminator(text.charCodeAt(t))) { t++; steps++; }
    if (closeFrom < 0 || (closeAt >= 0 && closeAt < t) || closeFrom > t) {
      closeFrom = t;
      closeAt = text.indexOf(']', t);
      steps += (closeAt < 0 ? n : closeAt) - t;
    }
    // Right to left: `close` is the first `]` after `p`.
    let close = closeAt;
    for (let p = t - 1; p >= a; p--) {
      steps++;
      if (text.charCodeAt(p + 1) === CLOSE) close = p + 1;
      if (text.charCodeAt(p) !== OPEN || close < 0 || close === p + 1) continue;
      const m = rest(text, s, p, close);
      if (m) return m;
    }
    // Any later start before `t` sees a subset of these brackets: none can match.
    s = t + 1;
  }
  return undefined;
}

/** `\[?([^\]])\]?` after the `]` at `close`, or undefined when it fails there. */
function rest(text: string, index: number, open: number, close: number): TagMatch | undefined {
  const n = text.length;
  const q = close + 1;
  if (q >= n) return undefined;
  const c = text.charCodeAt(q);
  let g = -1;
  if (c === OPEN && q + 1 < n && text.charCodeAt(q + 1) !== CLOSE) g = q + 1;
  else if (c !== CLOSE) g = q;
  if (g < 0) return undefined;
  const end = g + 1 < n && text.charCodeAt(g + 1) === CLOSE ? g + 2 : g + 1;
  return { index, end, tagStart: open + 1, tagEnd: close, nextStart: g };
}

/**
 * The right-to-left scan for a text without terminators (one stretch, to the end) by native
 * searches from `[` to `[`: `close` is the first `]` after the current `[`, `q` the last `]` before it.
 * Each search starts where the last one stopped, so the text is read a few times at most.
 */
function lastBracket(text: string, index: number, a: number): TagMatch | undefined {
  const n = text.length;
  let p = text.lastIndexOf('[', n - 1);
  let q = text.lastIndexOf(']', n - 1);
  steps += 2 * n - Math.max(p, 0) - Math.max(q, 0);
  let close = -1;
  while (p >= a) {
    if (q > p) {
      close = text.indexOf(']', p + 1);
      const below = p > 0 ? text.lastIndexOf(']', p - 1) : -1;
      steps += close - p + p - below;
      q = below;
    }
    if (close > p + 1) {
      const m = rest(text, index, p, close);
      if (m) return m;
    }
    const next = p > 0 ? text.lastIndexOf('[', p - 1) : -1;
    steps += p - next;
    p = next;
  }
  return undefined;
}
