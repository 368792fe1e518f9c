/**
 * A format's own Summary tables (NNAPI's timing summary, InferScope's analysis), made by its
 * timeline builder from the same parse and carried on the complete model to the page, which draws
 * them as the Summary tab's tables. Format-neutral: the page needs no format switch.
 */

export type FormatCell = string | number | null;

export interface FormatTable {
  id: string;
  title: string;
  /** `int` columns hold numbers (drawn with two decimals at most), `pct` shares of 0–1. */
  columns: { label: string; kind: 'text' | 'int' | 'pct' }[];
  rows: FormatCell[][];
}

/** Tables per model and rows per table: the model stays small whatever the file holds. */
export const MAX_FORMAT_TABLES = 64;
export const MAX_FORMAT_ROWS = 1000;
/** Characters per text cell: a 10 MB mark must not become a 10 MB cell. */
export const MAX_CELL_CHARS = 500;

/** A text cell from the file, cut to `MAX_CELL_CHARS`. */
export function textCell(s: string): string {
  return s.length > MAX_CELL_CHARS ? `${s.slice(0, MAX_CELL_CHARS)}…` : s;
}

/** A number, or null for one missing (NaN, infinite: JSON has neither). */
export function numCell(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}
