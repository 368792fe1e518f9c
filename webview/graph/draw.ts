/**
 * Drawing the CMDQ graph page's canvas: the graph by dependency depth (nodes, edges, the critical
 * path, problem flags), its overview when zoomed out, and the schedule's rows per engine. Names
 * from the file are drawn with fillText, never parsed as HTML.
 */
import { CLASS_COLORS, CRITICAL_COLOR } from '../../core/cmdq/graph/palette';
import { fitCanvas } from '../canvas';
import { COL_W, NODE_H, NODE_W, nodeXY, ROW_H, visibleRange } from './layout';
import { canvas, ctx } from './page';
import { AXIS_H, BAR_H, LABEL_W, MAX_EDGES_DRAWN, nameOf, page, SROW_H } from './state';
import { rulerTicks } from '../timeAxis';

let queued = false;

function css(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

/** Draws at the next animation frame, once however many changes asked for it. */
export function requestDraw(): void {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    draw();
  });
}

function draw(): void {
  const { w, h } = fitCanvas(canvas, ctx);
  const { st, mode, scale, ox, oy } = page;
  ctx.fillStyle = css('--vscode-editor-background', '#1e1e1e');
  ctx.fillRect(0, 0, w, h);
  if (!st) return;
  if (mode === 'schedule') return drawSchedule(w, h);
  const { model: m, layout: L } = st;
  const o = page.orient;
  const { c0, c1, r0, r1 } = visibleRange(L, o, page, w, h);
  const x0 = (i: number) => ox + nodeXY(L, o, i).x * scale;
  const y0 = (i: number) => oy + nodeXY(L, o, i).y * scale;
  const cx = (i: number) => x0(i) + (NODE_W / 2) * scale;
  const cy = (i: number) => y0(i) + (NODE_H / 2) * scale;
  // An edge leaves a box on the side facing the next level and enters the next box on the other.
  const outX = (i: number) => (o === 'lr' ? x0(i) + NODE_W * scale : cx(i));
  const outY = (i: number) => (o === 'lr' ? cy(i) : y0(i) + NODE_H * scale);
  const inX = (i: number) => (o === 'lr' ? x0(i) : cx(i));
  const inY = (i: number) => (o === 'lr' ? cy(i) : y0(i));
  // Top to bottom is only chosen for small queues, always drawn in full.
  const detailed = o === 'tb' || ROW_H * scale >= 6;

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
          ctx.moveTo(outX(d), outY(d));
          ctx.lineTo(inX(i), inY(i));
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
    ctx.font = `${Math.min(16, Math.max(8, 11 * scale))}px var(--vscode-font-family, sans-serif)`;
    ctx.textBaseline = 'middle';
    for (let c = c0; c <= c1; c++) {
      const col = L.columns[c];
      for (let r = r0; r <= Math.min(r1, col.length - 1); r++) {
        const i = col[r];
        const x = x0(i), y = y0(i);
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
        ctx.moveTo(outX(e.from), outY(e.from));
        ctx.lineTo(inX(e.to), inY(e.to));
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
  const { st, scale, ox } = page;
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
  const { st, scale, ox, oy } = page;
  const { model: m, schedule: S } = st!;
  ctx.font = '11px var(--vscode-font-family, sans-serif)';
  ctx.textBaseline = 'middle';
  scheduleGrid(w, h);
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
  scheduleAxis(w, h);
}

/** The ticks of the schedule's axis in view: cycles of the list-scheduled run, about 100 px apart. */
function scheduleTicks(w: number): { t: number; label: string }[] {
  const { scale, ox } = page;
  return rulerTicks({ t0: 0, nsPerCycle: undefined }, Math.max(0, (LABEL_W - ox) / scale), (w - ox) / scale, scale);
}

/** Faint lines down from each tick, behind the bars. */
function scheduleGrid(w: number, h: number): void {
  ctx.fillStyle = css('--vscode-editorRuler-foreground', '#5a5a5a');
  ctx.globalAlpha = 0.35;
  for (const t of scheduleTicks(w)) {
    const x = Math.round(page.ox + t.t * page.scale);
    if (x >= LABEL_W) ctx.fillRect(x, AXIS_H, 1, h - AXIS_H);
  }
  ctx.globalAlpha = 1;
}

/** The schedule's time axis over the rows: its ticks and their cycles. */
function scheduleAxis(w: number, h: number): void {
  const { scale, ox } = page;
  const fg = css('--vscode-foreground', '#cccccc');
  ctx.fillStyle = css('--vscode-editor-background', '#1e1e1e');
  ctx.fillRect(0, 0, w, AXIS_H);
  ctx.fillStyle = css('--vscode-descriptionForeground', '#999999');
  ctx.fillText('cycles', 6, AXIS_H / 2, LABEL_W - 10);
  ctx.save();
  ctx.beginPath();
  ctx.rect(LABEL_W, 0, w - LABEL_W, h);
  ctx.clip();
  for (const t of scheduleTicks(w)) {
    const x = Math.round(ox + t.t * scale) + 0.5;
    ctx.fillStyle = css('--vscode-editorRuler-foreground', '#5a5a5a');
    ctx.fillRect(x, AXIS_H - 6, 1, 6);
    ctx.fillStyle = fg;
    ctx.fillText(t.label, x + 3, AXIS_H / 2);
  }
  ctx.restore();
}
