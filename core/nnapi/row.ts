/**
 * One line of a systrace/ftrace text trace, read with the two row regexes of the reference
 * (rules §1). Only `tracing_mark_write` rows count; everything else (sched events, comments, HTML)
 * is `undefined` unless it mentions NNAPI marks without parsing, which is an input error.
 */

// The reference's regexes: new rows carry a `( tgid)` column, old rows do not. One lookahead is
// added after the pid/tgid column: everything after it must be free of line terminators (`.`, `\d`
// and the literals cannot match one), so it changes no match, but the reference's form backtracks
// over every `tracing_mark_write: ` before a U+2028 at the end, each time up to it (a 216 KB line:
// 9 s). With it, that is one scan. test/fuzz/nnapiRow.fuzz.test.ts holds both to the verbatim ones.
const NEW_ROW = /^\s*([^ ].{1,15})-(\d+)\s+\(\s*([-0-9]+)\) (?=[^\n\r\u2028\u2029]*$).* (\d+\.\d+): tracing_mark_write: ([BE].*)$/;
const OLD_ROW = /^\s*([^ ].{1,15})-(\d+) (?=[^\n\r\u2028\u2029]*$).* (\d+\.\d+): tracing_mark_write: ([BE].*)$/;

const MARKER = 'tracing_mark_write: ';

export interface MarkRow {
  kind: 'row';
  task: string;
  pid: string;
  /** The `( tgid)` column as written (may be `-----`); undefined for old rows without it. */
  tgidColumn: string | undefined;
  /** Seconds, as the trace prints them. */
  time: number;
  /** `B|<tgid>|<text>`, `E` or `E|<tgid>`. */
  mark: string;
  /** Column of the mark in the line. */
  markCol: number;
}

export interface UnparsedRow {
  kind: 'unparsed';
  /** What the line mentions that made it count. */
  mentions: string;
  start: number;
  end: number;
}

/** The header line that starts the text trace inside a systrace HTML file. */
export interface HeaderLine {
  kind: 'header';
}
/** A line containing `</script>`: ends the text trace of an HTML file. */
export interface ScriptEnd {
  kind: 'script-end';
}

export type RowLine = MarkRow | UnparsedRow | HeaderLine | ScriptEnd;

const HEADERS = [
  '#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION',
  '#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION',
];
const HEADER = { kind: 'header' } as const;
const SCRIPT_END = { kind: 'script-end' } as const;
const MENTIONS = ['[NN_', 'HIDL::IDevice', 'tracing_mark_write: B', 'tracing_mark_write: E'];

export function parseRowLine(line: string): RowLine | undefined {
  const at = line.indexOf(MARKER);
  const hasMarker = at >= 0;
  if (hasMarker) {
    const fast = readNewRow(line, at);
    if (fast) return fast;
    const m = NEW_ROW.exec(line);
    if (m) return row(line, m[1], m[2], m[3], m[4], m[5]);
    const o = OLD_ROW.exec(line);
    if (o) return row(line, o[1], o[2], undefined, o[3], o[4]);
  }
  // Header and `</script>` are checked only on lines that are not rows, as the reference does
  // (a row cannot contain them in practice, and a row must stay a row).
  if (line.includes('</script>')) return SCRIPT_END;
  if (HEADERS.some((h) => line.includes(h))) return HEADER;
  if (!hasMarker && !line.includes('[NN_') && !line.includes('HIDL::IDevice')) return undefined;
  for (const s of MENTIONS) {
    const i = line.indexOf(s);
    if (i >= 0) {
      const lead = line.length - line.trimStart().length;
      return { kind: 'unparsed', mentions: s, start: lead, end: Math.max(lead, line.trimEnd().length) };
    }
  }
  return undefined;
}

// Four native searches beat one character-class regex here: on a one-byte line V8 answers the
// two that are not Latin-1 without scanning.
const hasTerminator = (line: string) => line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0 || line.indexOf('\u2028') >= 0 || line.indexOf('\u2029') >= 0;

/** JavaScript's `\s` (ECMAScript WhiteSpace and LineTerminator), which the reference regex's `\s` means. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * NEW_ROW without the regex engine, for the common row (the regex cost a third of reading a 1M-row
 * trace). It finds the match the regex finds first — greedy leading space, the longest task, the
 * last timestamp before the marker — and gives up (undefined: ask the regex) on anything it cannot
 * decide alone: a second marker in the line, a line terminator, a row the greedy choices reject.
 * The fuzz test holds it to the regex on mutated rows.
 */
export function readNewRow(line: string, at: number): MarkRow | undefined {
  if (hasTerminator(line)) return undefined;
  return readNewRowIn(line, 0, line.length, at, line.indexOf(MARKER, at + 1));
}

/**
 * `readNewRow` of the line `[start, end)` of `text` (a chunk of a file: scanning a flat chunk is
 * much faster than scanning a slice of it). `at`: the marker's index in `text`; `nextAt`: the next
 * marker's index after it, or -1. The caller has ruled out line terminators in the line.
 */
export function readNewRowIn(text: string, start: number, end: number, at: number, nextAt: number): MarkRow | undefined {
  const markStart = at + MARKER.length;
  if (markStart >= end || at - 2 < start || (nextAt >= 0 && nextAt < end)) return undefined;
  const b = text.charCodeAt(markStart);
  if (b !== 66 && b !== 69) return undefined;
  // ` <digits>.<digits>: ` before the marker: the only place the regex's last `.*` can stop.
  if (text.charCodeAt(at - 1) !== 32 || text.charCodeAt(at - 2) !== 58) return undefined;
  const timeEnd = at - 2;
  let q = timeEnd;
  while (q > start && isDigit(text.charCodeAt(q - 1))) q--;
  if (q === timeEnd || q === start || text.charCodeAt(q - 1) !== 46) return undefined;
  q--;
  const dot = q;
  while (q > start && isDigit(text.charCodeAt(q - 1))) q--;
  if (q === dot || q === start || text.charCodeAt(q - 1) !== 32) return undefined;
  const timeStart = q;
  let s0 = start;
  while (s0 < end && isSpace(text.charCodeAt(s0))) s0++;
  // `([^ ].{1,15})-`: the longest task first, as the greedy `.{1,15}` tries. Every scan below
  // starts before the marker and stops at its first letter, so none leaves the line.
  for (let len = 16; len >= 2; len--) {
    const dash = s0 + len;
    if (dash >= at || text.charCodeAt(dash) !== 45) continue;
    let j = dash + 1;
    while (isDigit(text.charCodeAt(j))) j++;
    const pidEnd = j;
    if (pidEnd === dash + 1 || !isSpace(text.charCodeAt(j))) continue;
    while (isSpace(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) !== 40) continue;
    j++;
    while (isSpace(text.charCodeAt(j))) j++;
    const tgidStart = j;
    for (let c = text.charCodeAt(j); isDigit(c) || c === 45; c = text.charCodeAt(j)) j++;
    if (j === tgidStart || text.charCodeAt(j) !== 41 || text.charCodeAt(j + 1) !== 32) continue;
    // `\) .* (\d+`: the timestamp's leading space must come at or after the space that follows `)`.
    if (timeStart - 1 < j + 2) continue;
    return { kind: 'row', task: text.slice(s0, dash), pid: text.slice(dash + 1, pidEnd), tgidColumn: text.slice(tgidStart, j),
      time: decimal(text, timeStart, dot, timeEnd), mark: text.slice(markStart, end), markCol: markStart - start };
  }
  return undefined;
}

/**
 * Reads the rows of a file chunk by chunk (see `forEachLineIn`): the fast reader on the chunk
 * itself, the regexes on a line of its own where it gives up. One marker search per chunk
 * position, not per line, so long stretches of other rows (scheduler events in an HTML export)
 * stay linear.
 */
export class ChunkRowReader {
  private chunk = -1;
  private next = -1;
  /** No U+2028/U+2029 in the chunk (on a one-byte chunk, known without scanning). */
  private clean = true;

  /** `chunk`: the number of `text` (a new number, a new text); -1 for a text made for this line alone. */
  read(text: string, start: number, end: number, chunk: number): RowLine | undefined {
    if (chunk < 0) return parseRowLine(start === 0 && end === text.length ? text : text.slice(start, end));
    if (chunk !== this.chunk) {
      this.chunk = chunk;
      this.clean = text.indexOf('\u2028') < 0 && text.indexOf('\u2029') < 0;
      this.next = text.indexOf(MARKER, start);
    } else if (this.next >= 0 && this.next < start) this.next = text.indexOf(MARKER, start);
    const at = this.next;
    if (at >= 0 && at < end && this.clean) {
      this.next = text.indexOf(MARKER, at + 1);
      const r = readNewRowIn(text, start, end, at, this.next);
      if (r) return r;
    }
    return parseRowLine(text.slice(start, end));
  }
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * `Number` of the digits `[start, dot)` `.` `[dot + 1, end)` without making the string. With at
 * most 15 digits the digits without the dot are an exact integer and so is the power of ten, and
 * one IEEE division of exact values is correctly rounded: the same double `Number` gives.
 */
function decimal(line: string, start: number, dot: number, end: number): number {
  if (end - start - 1 > 15) return Number(line.slice(start, end));
  let v = 0;
  for (let i = start; i < end; i++) if (i !== dot) v = v * 10 + (line.charCodeAt(i) - 48);
  return v / POW10[end - dot - 1];
}

/** The regex's reading, for tests that hold `readNewRow` to it. */
export function regexNewRow(line: string): MarkRow | undefined {
  const m = NEW_ROW.exec(line);
  return m ? row(line, m[1], m[2], m[3], m[4], m[5]) : undefined;
}

/** The old-row regex's reading, for tests that hold it to the reference's. */
export function regexOldRow(line: string): MarkRow | undefined {
  const o = OLD_ROW.exec(line);
  return o ? row(line, o[1], o[2], undefined, o[3], o[4]) : undefined;
}

function row(line: string, task: string, pid: string, tgid: string | undefined, timeText: string, mark: string): MarkRow {
  return { kind: 'row', task, pid, tgidColumn: tgid, time: Number(timeText), mark, markCol: line.length - mark.length };
}

/** Whether a file's first line says it is HTML (a systrace HTML export) rather than plain text. */
export function looksLikeHtml(firstLine: string): boolean {
  const t = firstLine.trimStart().toLowerCase();
  return t.startsWith('<!doctype html') || t.startsWith('<html') || t.startsWith('<!--') || t.startsWith('<head');
}
