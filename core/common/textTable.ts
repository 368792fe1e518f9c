/** Rows of a table printed per section; a file can make any number of groups. */
export const MAX_ROWS = 200;

/**
 * A titled text table for the terminal (`stats`, `diff`): the first column left-aligned, the rest
 * right-aligned, at most MAX_ROWS rows with a line for the rest. Cells must be escaped already.
 */
export function textTable(title: string, head: string[], rows: string[][], total = rows.length, maxRows = MAX_ROWS): string[] {
  if (rows.length === 0) return [];
  const shown = rows.slice(0, maxRows);
  const w = head.map((h, i) => Math.max(h.length, ...shown.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ').trimEnd();
  const out = ['', title, line(head), w.map((n) => '-'.repeat(n)).join('  '), ...shown.map(line)];
  if (total > shown.length) out.push(`… ${total - shown.length} more rows (--json lists them all)`);
  return out;
}
