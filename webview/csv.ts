/**
 * Tables as CSV (RFC 4180) for Copy and Save. Cells hold names from the trace, so a cell a
 * spreadsheet would run as a formula (starting with =, +, -, @, or a tab/CR that some strip
 * first) gets a leading apostrophe; numbers are written as numbers.
 */
export type Cell = string | number | boolean | null;

const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(v: Cell): string {
  if (v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = FORMULA.test(v) ? `'${v}` : v;
  return /[",\r\n']/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const out = [header.map(csvCell).join(',')];
  for (const r of rows) out.push(r.map(csvCell).join(','));
  return out.join('\r\n') + '\r\n';
}
