/**
 * Sizes a canvas's backing store to its CSS size at the screen's pixel ratio (sharp lines and text
 * on a HiDPI screen) and scales the context so that drawing is in CSS pixels; returns that size.
 * Both pages (the timeline, the CMDQ graph) call it before each frame: a resize shows there.
 */
export function fitCanvas(canvas: HTMLCanvasElement, g: CanvasRenderingContext2D): { w: number; h: number } {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
  }
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { w, h };
}
