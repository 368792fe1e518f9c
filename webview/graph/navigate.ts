/**
 * The CMDQ graph page's view and selection: Graph ⇄ Schedule, the Layers table, fit, select an
 * entry (and say what it is), and what entry a point of the canvas shows.
 */
import { NODE_H, NODE_W, nodeXY, pitch, reach, worldSize, type Orientation } from './layout';
import { renderLayerTable } from './layerTable';
import { requestDraw } from './draw';
import { canvas, layersButton, modeButton, selection, tableBox, vscode } from './page';
import { entryAtCycle } from './schedule';
import { AXIS_H, BAR_H, LABEL_W, nameOf, page, SROW_H, type Mode } from './state';

/** The Estimated vs measured table instead of the canvas (when the queue has a joined trace), or the canvas. */
export function showTable(on: boolean): void {
  const join = page.st?.model.join;
  const show = on && !!join;
  tableBox.hidden = !show;
  canvas.hidden = show;
  layersButton.textContent = show ? 'Graph' : 'Layers';
  if (show) renderLayerTable(tableBox, join!, page.tableSort, (col) => {
    const sort = page.tableSort;
    page.tableSort = { col, dir: sort.col === col ? (-sort.dir as 1 | -1) : col <= 1 ? 1 : -1 };
    showTable(true);
  });
  else requestDraw();
}

export function setMode(next: Mode): void {
  page.saved[page.mode] = { scale: page.scale, ox: page.ox, oy: page.oy };
  page.mode = next;
  Object.assign(page, page.saved[next]);
  modeButton.textContent = next === 'graph' ? 'Schedule' : 'Graph';
  requestDraw();
}

export function fit(): void {
  const st = page.st;
  if (!st) return;
  if (page.mode === 'schedule') {
    page.scale = (canvas.clientWidth - LABEL_W - 20) / Math.max(1, st.model.makespan);
    page.ox = LABEL_W;
    // Below the time axis.
    page.oy = AXIS_H + 6;
    return;
  }
  const w = canvas.clientWidth, h = canvas.clientHeight;
  // Top to bottom where it gives much larger boxes (a panel beside the editor), else left to right; a small queue fills the panel (up to
  // 1.5 times the nodes' size) and sits in its middle, not as tiny boxes in a corner (#30).
  const scaleOf = (o: Orientation) => {
    const size = worldSize(st.layout, o);
    return Math.min(1.5, (w - 40) / size.w, (h - 20) / size.h);
  };
  const lr = scaleOf('lr'), tb = scaleOf('tb');
  page.orient = st.model.n <= MAX_TOP_TO_BOTTOM && tb > lr * 1.5 ? 'tb' : 'lr';
  const size = worldSize(st.layout, page.orient);
  page.scale = page.orient === 'tb' ? tb : lr;
  page.ox = Math.max(20, (w - size.w * page.scale) / 2);
  page.oy = Math.max(10, (h - size.h * page.scale) / 2);
}

/** Entries up to which levels may run top to bottom: beyond it the overview (left to right) serves better. */
const MAX_TOP_TO_BOTTOM = 2000;

/** The selected entry's line: what it is, its layer as the trace measured it, its problems. */
export function selectionText(i: number): string {
  return describe(i) + measuredText(i) + problemText(i);
}

function describe(i: number): string {
  const st = page.st!, m = st.model;
  const layer = m.layer[i] >= 0 ? m.layers[m.layer[i]] : '-';
  if (m.level[i] < 0) return `Entry ${i} ${nameOf(m, i)} · layer ${layer} · blocked: it waits (maybe transitively) for a dependency cycle`;
  return `Entry ${i} ${nameOf(m, i)} · layer ${layer} · ${m.cost[i]} cycles · earliest start ${m.earliestStart[i]} · slack ${m.slack[i]} · scheduled at ${m.start[i]}${st.critical[i] ? ' · on the critical path' : ''}`;
}

/** The selected entry's layer as the trace measured it, as in the hover. */
function measuredText(i: number): string {
  const m = page.st!.model;
  if (!m.join || m.layer[i] < 0) return '';
  const l = m.join.layers.find((x) => x.layer === m.layers[m.layer[i]]);
  if (!l) return '';
  if (!l.measured) return ` · layer not in ${m.join.trace}`;
  return ` · measured: layer span ${l.measured.span} cycles (TE ${l.measured.te} / VE ${l.measured.ve} / DMA ${l.measured.dma} busy), estimated ${l.estimated.span}${l.ratio === null ? '' : `, ×${l.ratio}`}`;
}

function problemText(i: number): string {
  const found = page.st!.problems.get(i);
  if (!found) return '';
  const codes = [...new Set(found.map((p) => p.code))];
  return ` · problems: ${codes.slice(0, 5).join(', ')}${codes.length > 5 ? ', …' : ''}`;
}

/** Selects entry `i`: `fromPage` when the user picked it here (the host then moves the editor), else brought into view. */
export function select(i: number, fromPage: boolean): void {
  const st = page.st;
  if (!st || i < 0 || i >= st.model.n) return;
  st.selected = i;
  st.ancestors = reach(i, st.layout.inStart, st.layout.inn, st.model.n);
  st.descendants = reach(i, st.layout.outStart, st.layout.out, st.model.n);
  selection.textContent = selectionText(i);
  const { scale, ox, oy } = page;
  if (fromPage) vscode.postMessage({ type: 'reveal', index: i });
  else if (page.mode === 'schedule') {
    const x = ox + st.model.start[i] * scale, y = oy + st.schedule.rowOf[i] * SROW_H;
    if (st.schedule.rowOf[i] >= 0 && (x < LABEL_W || x > canvas.clientWidth || y < 0 || y > canvas.clientHeight - SROW_H)) {
      page.ox = (LABEL_W + canvas.clientWidth) / 2 - st.model.start[i] * scale;
      page.oy = Math.min(10, canvas.clientHeight / 2 - st.schedule.rowOf[i] * SROW_H);
    }
  } else {
    // Bring the node into view when the cursor picked it.
    const at = nodeXY(st.layout, page.orient, i);
    const x = ox + at.x * scale, y = oy + at.y * scale;
    if (x < 0 || y < 0 || x > canvas.clientWidth - NODE_W * scale || y > canvas.clientHeight - NODE_H * scale) {
      page.ox = canvas.clientWidth / 2 - (at.x + NODE_W / 2) * scale;
      page.oy = canvas.clientHeight / 2 - (at.y + NODE_H / 2) * scale;
    }
  }
  requestDraw();
}

/** The entry drawn at a canvas point, or -1. */
export function hit(px: number, py: number): number {
  const { st, scale, ox, oy } = page;
  if (!st) return -1;
  if (page.mode === 'schedule') {
    const r = Math.floor((py - oy) / SROW_H);
    if (px < LABEL_W || r < 0 || py - oy - r * SROW_H > BAR_H) return -1;
    return entryAtCycle(st.model, st.schedule, r, (px - ox) / scale);
  }
  const wx = (px - ox) / scale, wy = (py - oy) / scale;
  const p = pitch(page.orient);
  // Along the levels' axis and across it, whichever way they run.
  const [wl, ws] = page.orient === 'lr' ? [wx, wy] : [wy, wx];
  const c = Math.floor(wl / p.level), r = Math.floor(ws / p.slot);
  if (c < 0 || c >= st.layout.columns.length || r < 0 || r >= st.layout.columns[c].length) return -1;
  const i = st.layout.columns[c][r];
  const at = nodeXY(st.layout, page.orient, i);
  if (wx - at.x > NODE_W || wy - at.y > NODE_H) return -1;
  return i;
}
