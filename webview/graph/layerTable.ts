// The graph page's "Estimated vs measured" table: one row per CMDQ layer, the cost model's
// estimate beside the trace's measurement, sortable by any column. Every name from a file is set
// as textContent, never HTML.
import type { LayerJoin } from '../../core/cmdq/graph/join';
import type { GraphJoin } from '../../core/cmdq/graph/view';

/** Rows drawn at most (a join holds up to 10 000 layers; sorting picks which ones show). */
export const MAX_TABLE_ROWS = 1000;

interface Column { title: string; tip: string; value(l: LayerJoin): number | string | null }

export const COLUMNS: Column[] = [
  { title: 'layer', tip: 'layer_id in the CMDQ', value: (l) => l.layer },
  { title: 'trace layer', tip: 'the trace layer it was matched to (same name, or npuTrace.cmdq.layerMap)', value: (l) => l.traceLayer },
  { title: 'entries', tip: 'CMDQ entries of the layer', value: (l) => l.entries },
  { title: 'est. span', tip: 'estimated cycles: first start to last end of its entries in the list-scheduled run', value: (l) => l.estimated.span },
  { title: 'meas. span', tip: 'measured cycles: the layer span in the trace (npu-trace stats, Layers)', value: (l) => l.measured?.span ?? null },
  { title: 'meas./est.', tip: 'measured span / estimated span', value: (l) => l.ratio },
  { title: 'est. TE', tip: 'estimated TE cycles', value: (l) => l.estimated.te },
  { title: 'meas. TE', tip: 'TE busy cycles in the trace', value: (l) => l.measured?.te ?? null },
  { title: 'est. VE', tip: 'estimated VE cycles', value: (l) => l.estimated.ve },
  { title: 'meas. VE', tip: 'VE busy cycles in the trace', value: (l) => l.measured?.ve ?? null },
  { title: 'est. DMA', tip: 'estimated DMA cycles', value: (l) => l.estimated.dma },
  { title: 'meas. DMA', tip: 'DMA busy cycles in the trace', value: (l) => l.measured?.dma ?? null },
];

const text = (v: number | string | null): string => (v === null ? '-' : typeof v === 'number' ? v.toLocaleString('en-US') : v);

/** Nulls last in either direction; numbers by value, names by code point. */
export function sortLayers(layers: readonly LayerJoin[], col: number, dir: 1 | -1): LayerJoin[] {
  const get = COLUMNS[col].value;
  return [...layers].sort((a, b) => {
    const x = get(a), y = get(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return (x < y ? -1 : x > y ? 1 : 0) * dir;
  });
}

/** Renders the table into `box`; a click on a header sorts by it (again: the other way). */
export function renderLayerTable(box: HTMLElement, join: GraphJoin, sort: { col: number; dir: 1 | -1 }, onSort: (col: number) => void): void {
  const head = document.createElement('div');
  head.className = 'caption';
  const measured = join.layers.filter((l) => l.measured).length;
  head.textContent = `Estimated (cost model) vs measured (${join.trace}): ${join.layers.length} layers, ${measured} matched in the trace${join.more ? `; ${join.more} entries of further layers not joined` : ''}${join.note ? ` — ${join.note}` : ''}`;
  const table = document.createElement('table');
  const tr = document.createElement('tr');
  COLUMNS.forEach((c, k) => {
    const th = document.createElement('th');
    th.textContent = c.title + (sort.col === k ? (sort.dir > 0 ? ' ▲' : ' ▼') : '');
    th.title = c.tip;
    th.addEventListener('click', () => onSort(k));
    tr.append(th);
  });
  table.append(tr);
  const rows = sortLayers(join.layers, sort.col, sort.dir);
  for (const l of rows.slice(0, MAX_TABLE_ROWS)) {
    const row = document.createElement('tr');
    for (const c of COLUMNS) {
      const td = document.createElement('td');
      const v = c.value(l);
      td.textContent = text(v);
      if (typeof v === 'number') td.className = 'num';
      row.append(td);
    }
    table.append(row);
  }
  const parts: HTMLElement[] = [head, table];
  if (rows.length > MAX_TABLE_ROWS) {
    const more = document.createElement('div');
    more.className = 'caption';
    more.textContent = `… ${rows.length - MAX_TABLE_ROWS} more layers (sort to see others)`;
    parts.push(more);
  }
  box.replaceChildren(...parts);
}
