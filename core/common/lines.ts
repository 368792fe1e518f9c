import type { Diagnostic, Severity } from './diagnostic';

/**
 * Lines longer than this (bytes in the CLI, characters in the editor) are reported once and not
 * read: parsing one costs many times its size, and a line of hundreds of MB cannot be a string.
 * `npuTrace.diagnostics.maxLineBytes` and `npu-trace check --max-line-bytes` change it.
 */
export const DEFAULT_MAX_LINE_BYTES = 8 << 20;

/** Bytes as a person reads them: `8 MB`, `512 KB`, `100 B`. */
export function formatBytes(n: number): string {
  if (n >= 1 << 20) return `${Math.round((n / (1 << 20)) * 10) / 10} MB`;
  if (n >= 1 << 10) return `${Math.round((n / (1 << 10)) * 10) / 10} KB`;
  return `${n} B`;
}

/** The one diagnostic of a line over the limit, which is skipped unread. */
export function lineTooLong(kind: { code: string; severity: Severity }, line: number, length: number, limit: number, unit: 'bytes' | 'characters'): Diagnostic {
  const size = unit === 'bytes' ? formatBytes(length) : `${length} characters`;
  const max = unit === 'bytes' ? formatBytes(limit) : `${limit} characters`;
  return {
    range: { start: { line, character: 0 }, end: { line, character: 0 } },
    severity: kind.severity,
    code: kind.code,
    message: `Line ${line + 1} is ${size} long, over the limit of ${max} (setting npuTrace.diagnostics.maxLineBytes, npu-trace check --max-line-bytes): it is not checked`,
  };
}

/**
 * JSON lines nesting deeper than this are reported once and not parsed: each level costs the
 * parser about 60 times what a flat byte does (8 MB of `[` took 1.4 s and 240 MB).
 */
export const MAX_JSON_DEPTH = 10_000;

/**
 * Whether `[`/`{` nest deeper than `max` in `[s, e)` of a line (string contents skipped), in one
 * pass that stops as soon as they do. Works on text (char codes) and on UTF-8 bytes alike.
 */
export function nestsDeeperThan(at: (i: number) => number, s: number, e: number, max: number): boolean {
  if (e - s <= max) return false;
  let depth = 0;
  for (let i = s; i < e; i++) {
    const c = at(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x22) {
      for (i++; i < e; i++) {
        const q = at(i);
        if (q === 0x5c) i++;
        else if (q === 0x22) break;
      }
    }
  }
  return false;
}

/** The one diagnostic of a line nesting too deep, which is skipped unparsed. */
export function lineTooDeep(kind: { code: string; severity: Severity }, line: number, max: number): Diagnostic {
  return {
    range: { start: { line, character: 0 }, end: { line, character: 0 } },
    severity: kind.severity,
    code: kind.code,
    message: `Line ${line + 1} nests arrays and objects more than ${max} levels deep: it is not checked`,
  };
}

/**
 * Splits text into lines the way LSP counts them: `\n`, `\r\n` and lone `\r` all end a line,
 * and the terminator is not part of the line.
 */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** Lines `[start, end)` of the previous version were replaced by `newCount` lines. */
export interface LineEdit {
  start: number;
  end: number;
  newCount: number;
}

/**
 * Applies line edits (in the order they happened) to per-line data, leaving `undefined` where lines
 * must be recomputed. Returns the new array and the indices to recompute. `items` belongs to the
 * caller's document and may be changed in place: an edit that keeps the line count (typing within
 * lines, the common case) costs no copy of a 100k-entry array, which kept the collector busy.
 */
export function spliceLines<T>(items: (T | undefined)[], edits: readonly LineEdit[]): { items: (T | undefined)[]; todo: number[] } {
  let out = items;
  let shifted = false;
  const replaced = new Set<number>();
  for (const e of edits) {
    if (e.newCount === e.end - e.start) {
      for (let i = e.start; i < e.end; i++) {
        out[i] = undefined;
        replaced.add(i);
      }
      continue;
    }
    shifted = true;
    const fresh = new Array<T | undefined>(e.newCount).fill(undefined);
    // concat, not splice(...fresh): a pasted block of 100k lines would overflow the argument limit.
    out = out.slice(0, e.start).concat(fresh, out.slice(Math.max(e.start, e.end)));
  }
  // Without a shift the lines to recompute are the edited ranges: no scan of a 1M-entry array.
  if (!shifted) return { items: out, todo: [...replaced].sort((a, b) => a - b) };
  const todo: number[] = [];
  for (let i = 0; i < out.length; i++) if (out[i] === undefined) todo.push(i);
  return { items: out, todo };
}
