/** The Summary tab's tables of a format that brings its own (NNAPI, InferScope): the model's, as the Summary draws them. Pure (no DOM). */
import type { FormatTable } from '../core/timeline/formatTables';
import type { SummaryTable } from './summaryTables';

/** A format's own tables from its builder (`core/timeline/formatTables.ts`); Save as JSON writes each row as an object by column. */
export function formatSummaryTables(tables: readonly FormatTable[]): SummaryTable[] {
  return tables.map((t) => ({
    id: t.id, title: t.title, columns: t.columns, rows: t.rows,
    targets: t.rows.map(() => undefined), bars: t.rows.map(() => []),
    records: t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c.label, r[i]]))),
  }));
}
