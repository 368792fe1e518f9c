// The CMDQ dependency graph page: entries in columns by dependency depth on a 2D canvas, edges
// from each dep to what waits for it, colours by opcode, the critical path in red. Every name
// from the file is drawn with fillText or set as textContent, never parsed as HTML.
import { CLASS_COLORS, CRITICAL_COLOR } from '../../core/cmdq/graph/palette';
import type { GraphProblem } from '../../core/cmdq/graph/problems';
import type { GraphViewModel } from '../../core/cmdq/graph/view';
import type { GraphHostMessage, GraphPageMessage } from '../../protocol/cmdqGraph';
import { COL_W, layoutGraph, NODE_H, NODE_W, reach, ROW_H, type GraphLayout } from './layout';
import { renderLayerTable } from './layerTable';
import { entryAtCycle, layoutSchedule, type ScheduleLayout } from './schedule';

declare function acquireVsCodeApi(): { postMessage(m: GraphPageMessage): void };
const vscode = acquireVsCodeApi();
const canvas = document.getElementById('canvas') as HTMLCanvasElement;
const info = document.getElementById('summary')!;
const modeButton = document.getElementById('mode') as HTMLButtonElement;
const selection = document.getElementById('selection')!;
const layersButton = document.getElementById('layers') as HTMLButtonElement;
const tableBox = document.getElementById('table')!;
const ctx = canvas.getContext('2d')!;

/** Edges drawn per frame at most (a zoomed-out 100k graph shows its shape without them). */
const MAX_EDGES_DRAWN = 20_000;
/** Schedule rows: the engine names' column, row pitch and bar height (CSS pixels). */
const LABEL_W = 100, SROW_H = 28, BAR_H = 20;

interface State {
  model: GraphViewModel;
  layout: GraphLayout;
  schedule: ScheduleLayout;
  critical: Uint8Array;
  selected: number;
  ancestors: Uint8Array | undefined;
  descendants: Uint8Array | undefined;
  /** The checker's problems by entry, as the Problems panel lists them. */
  problems: Map<number, { code: string; severity: string }[]>;
  /** The edges a problem sits on (a cycle, a forward dep): drawn over the others, red for an error. */
  problemEdges: { from: number; to: number; error: boolean }[];
}
let st: State | undefined;
/** View transform: screen = world × scale + offset (CSS pixels). */
let scale = 1, ox = 20, oy = 10;
/** The graph by depth, or the schedule (rows per engine); each keeps its own view. */
let mode: 'graph' | 'schedule' = 'graph';
const saved = { graph: { scale: 1, ox: 20, oy: 10 }, schedule: { scale: 1, ox: LABEL_W, oy: 10 } };
let queued = false;

function css(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

function requestDraw(): void {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    draw();
  });
}

function nameOf(m: GraphViewModel, i: number): string {
  return m.opcode[i] >= 0 ? m.opcodes[m.opcode[i]] : '(no opcode)';
}

function draw(): void {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
  }
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = css('--vscode-editor-background', '#1e1e1e');
  ctx.fillRect(0, 0, w, h);
  if (!st) return;
  if (mode === 'schedule') return drawSchedule(w, h);
  const { model: m, layout: L } = st;
  const ncols = L.columns.length;
  const c0 = Math.max(0, Math.floor(-ox / (COL_W * scale)));
  const c1 = Math.min(ncols - 1, Math.floor((w - ox) / (COL_W * scale)));
  const r0 = Math.max(0, Math.floor(-oy / (ROW_H * scale)));
  const r1 = Math.floor((h - oy) / (ROW_H * scale));
  const cx = (i: number) => ox + (L.col[i] * COL_W + NODE_W / 2) * scale;
  const cy = (i: number) => oy + (L.row[i] * ROW_H + NODE_H / 2) * scale;
  const detailed = ROW_H * scale >= 6;

  if (detailed) {
    // Edges of the visible nodes, to and from them (both ends may be off screen).
    ctx.strokeStyle = css('--vscode-editorLineNumber-foreground', '#858585');
    ctx.lineWidth = 1;
    ctx.beginPath();
    let drawn = 0;
    for (let c = c0; c <= c1 && drawn < MAX_EDGES_DRAWN; c++) {
      const col = L.columns[c];
      for (let r = r0; r <= Math.min(r1, col.length - 1) && drawn < MAX_EDGES_DRAWN; r++) {
        const i = col[r];
        for (let e = L.inStart[i]; e < L.inStart[i + 1]; e++, drawn++) {
          const d = L.inn[e];
          ctx.moveTo(cx(d) + (NODE_W / 2) * scale, cy(d));
          ctx.lineTo(cx(i) - (NODE_W / 2) * scale, cy(i));
        }
      }
    }
    ctx.stroke();
  }

  // The critical path over the edges.
  const path = m.criticalPath;
  if (detailed && path.length > 1) {
    ctx.strokeStyle = CRITICAL_COLOR;
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.moveTo(cx(path[0]), cy(path[0]));
    for (let k = 1; k < path.length; k++) ctx.lineTo(cx(path[k]), cy(path[k]));
    ctx.stroke();
  }

  if (detailed) {
    ctx.font = `${Math.min(12, Math.max(8, 11 * scale))}px var(--vscode-font-family, sans-serif)`;
    ctx.textBaseline = 'middle';
    for (let c = c0; c <= c1; c++) {
      const col = L.columns[c];
      for (let r = r0; r <= Math.min(r1, col.length - 1); r++) {
        const i = col[r];
        const x = ox + c * COL_W * scale, y = oy + r * ROW_H * scale;
        ctx.fillStyle = CLASS_COLORS[m.cls[i]];
        ctx.globalAlpha = m.level[i] < 0 ? 0.45 : 1;
        ctx.fillRect(x, y, NODE_W * scale, NODE_H * scale);
        ctx.globalAlpha = 1;
        const mark = i === st.selected ? '#ffffff' : st.critical[i] ? CRITICAL_COLOR : st.ancestors?.[i] ? '#3794ff' : st.descendants?.[i] ? '#89d185' : '';
        if (mark) {
          ctx.strokeStyle = mark;
          ctx.lineWidth = i === st.selected ? 3 : 2;
          ctx.strokeRect(x, y, NODE_W * scale, NODE_H * scale);
        }
        const found = st.problems.get(i);
        if (found) {
          // A corner flag: red for an error, yellow for anything else.
          const k = Math.min(12, NODE_H * scale * 0.5);
          ctx.fillStyle = found.some((p) => p.severity === 'error') ? '#f14c4c' : '#cca700';
          ctx.beginPath();
          ctx.moveTo(x + NODE_W * scale - k, y);
          ctx.lineTo(x + NODE_W * scale, y);
          ctx.lineTo(x + NODE_W * scale, y + k);
          ctx.fill();
        }
        // Labels down to an 8 px font in a 10 px box: a graph fitted to a panel beside the editor
        // (about 500 px wide, scale 0.55) keeps its names.
        if (NODE_H * scale >= 10) {
          ctx.fillStyle = '#000000';
          ctx.fillText(`${i} ${nameOf(m, i)}`, x + 4, y + (NODE_H * scale) / 2, NODE_W * scale - 8);
        }
      }
    }
    // Over the nodes: a back edge (a cycle's, a forward dep's) can run across them.
    if (st.problemEdges.length) {
      ctx.lineWidth = 2;
      ctx.setLineDash([6, 3]);
      for (const e of st.problemEdges) {
        ctx.strokeStyle = e.error ? '#f14c4c' : '#cca700';
        ctx.beginPath();
        ctx.moveTo(cx(e.from) + (NODE_W / 2) * scale, cy(e.from));
        ctx.lineTo(cx(e.to) - (NODE_W / 2) * scale, cy(e.to));
        ctx.stroke();
      }
      ctx.setLineDash([]);
    }
  } else overview(w, h);
}

/**
 * Zoomed out (rows under 6 px): each pixel column sums the levels it covers — a bar as tall as
 * its share of the busiest pixel column, coloured by its most common opcode class, red on top
 * where the critical path passes — over a band of the layers (`layer_id`) in queue order.
 */
function overview(w: number, h: number): void {
  const { model: m, layout: L } = st!;
  const ncols = L.columns.length;
  const perPx = 1 / (COL_W * scale);
  const px0 = Math.max(0, Math.floor(ox)), px1 = Math.min(w, Math.ceil(ox + ncols * COL_W * scale));
  const totals = new Float64Array(Math.max(0, px1 - px0));
  const classes = new Array<string>(totals.length);
  const critical = new Uint8Array(totals.length);
  const layer = new Int32Array(totals.length).fill(-1);
  const tally = new Map<string, number>();
  let most = 1;
  for (let px = px0; px < px1; px++) {
    const a = Math.max(0, Math.floor((px - ox) * perPx)), b = Math.min(ncols - 1, Math.floor((px + 1 - ox) * perPx));
    tally.clear();
    let total = 0;
    for (let c = a; c <= b; c++) {
      const col = L.columns[c];
      total += col.length;
      for (let r = 0; r < col.length; r++) {
        const i = col[r];
        tally.set(m.cls[i], (tally.get(m.cls[i]) ?? 0) + 1);
        if (st!.critical[i]) critical[px - px0] = 1;
        if (layer[px - px0] < 0) layer[px - px0] = m.layer[i];
      }
    }
    let best = 'other', bestN = -1;
    for (const [k, v] of tally) if (v > bestN) [best, bestN] = [k, v];
    totals[px - px0] = total;
    classes[px - px0] = best;
    if (total > most) most = total;
  }
  const top = 8, band = 16, barH = Math.max(10, h - top - band - 14);
  for (let k = 0; k < totals.length; k++) {
    if (!totals[k]) continue;
    ctx.fillStyle = CLASS_COLORS[classes[k] as keyof typeof CLASS_COLORS];
    const bh = Math.max(1, (totals[k] / most) * barH);
    ctx.fillRect(px0 + k, top + 4 + barH - bh, 1, bh);
    if (critical[k]) {
      ctx.fillStyle = CRITICAL_COLOR;
      ctx.fillRect(px0 + k, top, 1, 3);
    }
  }
  // The layer band: alternate shades where the layer changes, its name where there is room.
  const y = top + 6 + barH;
  ctx.font = '11px var(--vscode-font-family, sans-serif)';
  ctx.textBaseline = 'middle';
  let from = 0, shade = 0;
  for (let k = 1; k <= totals.length; k++) {
    if (k < totals.length && layer[k] === layer[from]) continue;
    ctx.fillStyle = shade ? '#5a5a5a' : '#3c3c3c';
    ctx.fillRect(px0 + from, y, k - from, band);
    if (k - from >= 50 && layer[from] >= 0) {
      ctx.fillStyle = '#e0e0e0';
      ctx.fillText(m.layers[layer[from]], px0 + from + 3, y + band / 2, k - from - 6);
    }
    shade ^= 1;
    from = k;
  }
}

function drawSchedule(w: number, h: number): void {
  const { model: m, schedule: S } = st!;
  ctx.font = '11px var(--vscode-font-family, sans-serif)';
  ctx.textBaseline = 'middle';
  for (let r = 0; r < S.rows.length; r++) {
    const y = oy + r * SROW_H;
    if (y + SROW_H < 0 || y > h) continue;
    for (const i of S.rows[r]) {
      const x = ox + m.start[i] * scale;
      if (x > w) break;
      const bw = Math.max(1, m.cost[i] * scale);
      if (x + bw < LABEL_W) continue;
      ctx.fillStyle = CLASS_COLORS[m.cls[i]];
      ctx.fillRect(x, y, bw, BAR_H);
      const mark = i === st!.selected ? '#ffffff' : st!.critical[i] ? CRITICAL_COLOR : '';
      if (mark && bw > 3) {
        ctx.strokeStyle = mark;
        ctx.lineWidth = i === st!.selected ? 3 : 2;
        ctx.strokeRect(x, y, bw, BAR_H);
      }
      if (bw > 60) {
        ctx.fillStyle = '#000000';
        ctx.fillText(`${i} ${nameOf(m, i)}`, x + 3, y + BAR_H / 2, bw - 6);
      }
    }
  }
  // The engine names over a band of their own, drawn last so bars pass under it.
  ctx.fillStyle = css('--vscode-editor-background', '#1e1e1e');
  ctx.fillRect(0, 0, LABEL_W, h);
  ctx.fillStyle = css('--vscode-foreground', '#cccccc');
  for (let r = 0; r < S.names.length; r++) ctx.fillText(S.names[r], 6, oy + r * SROW_H + BAR_H / 2, LABEL_W - 10);
}

/** The Estimated vs measured table, shown instead of the canvas; sorted by measured/estimated, largest first. */
let tableSort: { col: number; dir: 1 | -1 } = { col: 5, dir: -1 };

function showTable(on: boolean): void {
  const join = st?.model.join;
  const show = on && !!join;
  tableBox.hidden = !show;
  canvas.hidden = show;
  layersButton.textContent = show ? 'Graph' : 'Layers';
  if (show) renderLayerTable(tableBox, join!, tableSort, (col) => {
    tableSort = { col, dir: tableSort.col === col ? (-tableSort.dir as 1 | -1) : col <= 1 ? 1 : -1 };
    showTable(true);
  });
  else requestDraw();
}

/** The selected entry's layer as the trace measured it, as in the hover. */
function measuredText(i: number): string {
  const m = st!.model;
  if (!m.join || m.layer[i] < 0) return '';
  const l = m.join.layers.find((x) => x.layer === m.layers[m.layer[i]]);
  if (!l) return '';
  if (!l.measured) return ` · layer not in ${m.join.trace}`;
  return ` · measured: layer span ${l.measured.span} cycles (TE ${l.measured.te} / VE ${l.measured.ve} / DMA ${l.measured.dma} busy), estimated ${l.estimated.span}${l.ratio === null ? '' : `, ×${l.ratio}`}`;
}

function setMode(next: 'graph' | 'schedule'): void {
  saved[mode] = { scale, ox, oy };
  mode = next;
  ({ scale, ox, oy } = saved[mode]);
  modeButton.textContent = mode === 'graph' ? 'Schedule' : 'Graph';
  requestDraw();
}

function fit(): void {
  if (!st) return;
  if (mode === 'schedule') {
    scale = (canvas.clientWidth - LABEL_W - 20) / Math.max(1, st.model.makespan);
    ox = LABEL_W;
    oy = 10;
    return;
  }
  const w = canvas.clientWidth, h = canvas.clientHeight;
  const ww = st.layout.columns.length * COL_W, wh = Math.max(1, st.layout.maxRows) * ROW_H;
  scale = Math.min(1.5, (w - 40) / ww, (h - 20) / wh);
  ox = 20;
  oy = 10;
}

function describe(i: number): string {
  const m = st!.model;
  const layer = m.layer[i] >= 0 ? m.layers[m.layer[i]] : '-';
  if (m.level[i] < 0) return `Entry ${i} ${nameOf(m, i)} · layer ${layer} · blocked: it waits (maybe transitively) for a dependency cycle`;
  return `Entry ${i} ${nameOf(m, i)} · layer ${layer} · ${m.cost[i]} cycles · earliest start ${m.earliestStart[i]} · slack ${m.slack[i]} · scheduled at ${m.start[i]}${st!.critical[i] ? ' · on the critical path' : ''}`;
}

function problemText(i: number): string {
  const found = st!.problems.get(i);
  if (!found) return '';
  const codes = [...new Set(found.map((p) => p.code))];
  return ` · problems: ${codes.slice(0, 5).join(', ')}${codes.length > 5 ? ', …' : ''}`;
}

function select(i: number, fromPage: boolean): void {
  if (!st || i < 0 || i >= st.model.n) return;
  st.selected = i;
  st.ancestors = reach(i, st.layout.inStart, st.layout.inn, st.model.n);
  st.descendants = reach(i, st.layout.outStart, st.layout.out, st.model.n);
  selection.textContent = describe(i) + measuredText(i) + problemText(i);
  if (fromPage) vscode.postMessage({ type: 'reveal', index: i });
  else if (mode === 'schedule') {
    const x = ox + st.model.start[i] * scale, y = oy + st.schedule.rowOf[i] * SROW_H;
    if (st.schedule.rowOf[i] >= 0 && (x < LABEL_W || x > canvas.clientWidth || y < 0 || y > canvas.clientHeight - SROW_H)) {
      ox = (LABEL_W + canvas.clientWidth) / 2 - st.model.start[i] * scale;
      oy = Math.min(10, canvas.clientHeight / 2 - st.schedule.rowOf[i] * SROW_H);
    }
  } else {
    // Bring the node into view when the cursor picked it.
    const x = ox + st.layout.col[i] * COL_W * scale, y = oy + st.layout.row[i] * ROW_H * scale;
    if (x < 0 || y < 0 || x > canvas.clientWidth - NODE_W * scale || y > canvas.clientHeight - NODE_H * scale) {
      ox = canvas.clientWidth / 2 - st.layout.col[i] * COL_W * scale;
      oy = canvas.clientHeight / 2 - st.layout.row[i] * ROW_H * scale;
    }
  }
  requestDraw();
}

/** The entry drawn at a canvas point, or -1. */
function hit(px: number, py: number): number {
  if (!st) return -1;
  if (mode === 'schedule') {
    const r = Math.floor((py - oy) / SROW_H);
    if (px < LABEL_W || r < 0 || py - oy - r * SROW_H > BAR_H) return -1;
    return entryAtCycle(st.model, st.schedule, r, (px - ox) / scale);
  }
  const wx = (px - ox) / scale, wy = (py - oy) / scale;
  const c = Math.floor(wx / COL_W), r = Math.floor(wy / ROW_H);
  if (c < 0 || c >= st.layout.columns.length || r < 0 || r >= st.layout.columns[c].length) return -1;
  if (wx - c * COL_W > NODE_W || wy - r * ROW_H > NODE_H) return -1;
  return st.layout.columns[c][r];
}

function summary(m: GraphViewModel, fileName: string): string {
  const share = m.load.filter((l) => l.critical > 0).slice(0, 8).map((l) => `${l.engine} ${m.criticalLength ? Math.round((100 * l.critical) / m.criticalLength) : 0}%`).join(', ');
  const blocked = m.blocked ? ` · ${m.blocked} blocked by ${m.cycleCount} cycle${m.cycleCount === 1 ? '' : 's'}` : '';
  return `${fileName}: ${m.n} entries · critical path ${m.criticalLength} cycles (${share}) · list-scheduled run ${m.makespan} cycles${blocked}`;
}

/** The checker's problems by entry (flags) and the edges they sit on. */
function placeProblems(list: readonly GraphProblem[], n: number): Pick<State, 'problems' | 'problemEdges'> {
  const problems = new Map<number, { code: string; severity: string }[]>();
  const problemEdges: State['problemEdges'] = [];
  const flag = (i: number, p: { code: string; severity: string }) => {
    const found = problems.get(i) ?? [];
    // A hundred problems on one entry still make one flag and a short list.
    if (found.length < 20) found.push(p);
    problems.set(i, found);
  };
  for (const p of list) {
    if (p.index >= n) continue;
    flag(p.index, p);
    if (p.peer !== undefined && p.peer < n) flag(p.peer, p);
    if (p.from !== undefined && p.from < n && problemEdges.length < MAX_EDGES_DRAWN) problemEdges.push({ from: p.from, to: p.index, error: p.severity === 'error' });
  }
  return { problems, problemEdges };
}

window.addEventListener('message', (ev: MessageEvent<GraphHostMessage>) => {
  const msg = ev.data;
  if (msg.type === 'graph') {
    const keep = st?.selected ?? -1;
    const critical = new Uint8Array(msg.model.n);
    for (const i of msg.model.criticalPath) critical[i] = 1;
    const first = !st;
    const model = msg.model;
    let schedule: ScheduleLayout | undefined;
    st = {
      model, layout: layoutGraph(model), critical, selected: -1, ancestors: undefined, descendants: undefined, ...placeProblems(model.problems, model.n),
      // Sorted rows per engine only once the schedule is shown (or a node selected): not before the first paint.
      get schedule() {
        return (schedule ??= layoutSchedule(model));
      },
    };
    info.textContent = summary(msg.model, msg.fileName);
    layersButton.hidden = !msg.model.join;
    showTable(!tableBox.hidden);
    if (first) {
      setMode('schedule');
      fit();
      setMode('graph');
      fit();
    }
    if (keep >= 0 && keep < msg.model.n) select(keep, false);
    requestDraw();
  } else if (msg.type === 'problems') {
    if (!st) return;
    Object.assign(st, placeProblems(msg.problems, st.model.n));
    if (st.selected >= 0) selection.textContent = describe(st.selected) + measuredText(st.selected) + problemText(st.selected);
    requestDraw();
  } else if (msg.type === 'select') select(msg.index, false);
  else if (msg.type === 'error') info.textContent = msg.message;
});

let drag: { x: number; y: number; moved: boolean } | undefined;
canvas.addEventListener('mousedown', (e) => (drag = { x: e.offsetX, y: e.offsetY, moved: false }));
canvas.addEventListener('mousemove', (e) => {
  if (!drag) return;
  if (Math.abs(e.offsetX - drag.x) + Math.abs(e.offsetY - drag.y) > 3) drag.moved = true;
  if (drag.moved) {
    ox += e.offsetX - drag.x;
    oy += e.offsetY - drag.y;
    drag.x = e.offsetX;
    drag.y = e.offsetY;
    requestDraw();
  }
});
canvas.addEventListener('mouseup', (e) => {
  if (drag && !drag.moved) {
    const i = hit(e.offsetX, e.offsetY);
    if (i >= 0) select(i, true);
  }
  drag = undefined;
});
canvas.addEventListener('wheel', (e) => {
  e.preventDefault();
  const k = Math.exp(-e.deltaY * 0.0015);
  // Graph units are layout boxes, schedule units cycles (a 1-cycle bar may be zoomed to 200 px).
  const ns = mode === 'graph' ? Math.min(4, Math.max(1e-5, scale * k)) : Math.min(200, Math.max(1e-9, scale * k));
  ox = e.offsetX - ((e.offsetX - ox) * ns) / scale;
  // The overview has no rows to aim at: zooming in from it keeps the first rows in view.
  if (mode === 'graph' && ROW_H * scale >= 6) oy = e.offsetY - ((e.offsetY - oy) * ns) / scale;
  scale = ns;
  requestDraw();
}, { passive: false });
canvas.addEventListener('keydown', (e) => {
  if (e.key === 's' || e.key === 'S') setMode(mode === 'graph' ? 'schedule' : 'graph');
  if (e.key === 'l' || e.key === 'L') showTable(tableBox.hidden);
  if (e.key === 'f' || e.key === 'F') {
    fit();
    requestDraw();
  }
});
modeButton.addEventListener('click', () => {
  showTable(false);
  setMode(mode === 'graph' ? 'schedule' : 'graph');
});
layersButton.addEventListener('click', () => showTable(tableBox.hidden));
new ResizeObserver(() => requestDraw()).observe(canvas);

// For the browser test: the page's own state and layout, to find where a node is drawn.
(window as unknown as { __graph: object }).__graph = { state: () => st, view: () => ({ scale, ox, oy, mode }) };
vscode.postMessage({ type: 'ready' });
