/** The CMDQ graph page's mouse and keys: drag to pan, click to select, wheel to zoom, S/L/F, the two buttons. */
import { requestDraw } from './draw';
import { ROW_H } from './layout';
import { fit, hit, select, setMode, showTable } from './navigate';
import { canvas, layersButton, modeButton, tableBox } from './page';
import { page } from './state';

export function attachInput(): void {
  let drag: { x: number; y: number; moved: boolean } | undefined;
  canvas.addEventListener('mousedown', (e) => (drag = { x: e.offsetX, y: e.offsetY, moved: false }));
  canvas.addEventListener('mousemove', (e) => {
    if (!drag) return;
    if (Math.abs(e.offsetX - drag.x) + Math.abs(e.offsetY - drag.y) > 3) drag.moved = true;
    if (drag.moved) {
      page.ox += e.offsetX - drag.x;
      page.oy += e.offsetY - drag.y;
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
    const { mode, scale, ox, oy } = page;
    const k = Math.exp(-e.deltaY * 0.0015);
    // Graph units are layout boxes, schedule units cycles (a 1-cycle bar may be zoomed to 200 px).
    const ns = mode === 'graph' ? Math.min(4, Math.max(1e-5, scale * k)) : Math.min(200, Math.max(1e-9, scale * k));
    page.ox = e.offsetX - ((e.offsetX - ox) * ns) / scale;
    // The overview has no rows to aim at: zooming in from it keeps the first rows in view.
    if (mode === 'graph' && (page.orient === 'tb' || ROW_H * scale >= 6)) page.oy = e.offsetY - ((e.offsetY - oy) * ns) / scale;
    page.scale = ns;
    requestDraw();
  }, { passive: false });
  const otherMode = () => (page.mode === 'graph' ? 'schedule' : 'graph');
  canvas.addEventListener('keydown', (e) => {
    if (e.key === 's' || e.key === 'S') setMode(otherMode());
    if (e.key === 'l' || e.key === 'L') showTable(tableBox.hidden);
    if (e.key === 'f' || e.key === 'F') {
      fit();
      requestDraw();
    }
  });
  modeButton.addEventListener('click', () => {
    showTable(false);
    setMode(otherMode());
  });
  layersButton.addEventListener('click', () => showTable(tableBox.hidden));
}
