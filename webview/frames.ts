/**
 * Drawing the timeline: one frame per animation frame however many changes asked for it, and the
 * frame times the bench reads.
 */
import { canvas, fontFamily, g, vscode, type Saved } from './dom';
import { fitCanvas } from './canvas';
import { render, RULER_H } from './render';
import { session } from './session';
import type { HostTiming } from '../protocol/timeline';

/**
 * Frame times, read by the bench (tests count what is drawn at the canvas): `frames` is the render() call alone,
 * `latency` what the user waits for, from the input event (or host message) that asked for the frame
 * to the end of its drawing (handlers, filter/search work, the wait for the animation frame, render).
 */
export const perf = { frames: [] as number[], latency: [] as number[], firstPaint: 0, modelReceived: 0, completePaint: 0, scriptStarted: 0, ready: 0, host: undefined as HostTiming | undefined };

let pending = false;
/** When the event being handled was created (performance.now() time base); -1 outside an event. */
let inputAt = -1;
let requestedAt = 0;
for (const type of ['wheel', 'pointerdown', 'pointermove', 'pointerup', 'dblclick', 'keydown', 'input', 'change', 'message']) {
  window.addEventListener(type, (e) => {
    inputAt = e.timeStamp;
    // Cleared once this event's dispatch is over, so a later frame not asked by an input is not charged to it.
    setTimeout(() => (inputAt = -1));
  }, { capture: true, passive: true });
}

export function schedule(): void {
  if (pending) return;
  pending = true;
  requestedAt = inputAt >= 0 ? inputAt : performance.now();
  requestAnimationFrame(draw);
}

function draw(): void {
  pending = false;
  const s = session.state;
  if (!s) return;
  const t = performance.now();
  const { w: W, h: H } = fitCanvas(canvas, g);
  s.scrollY = Math.max(0, Math.min(s.scrollY, s.contentHeight - (H - RULER_H) + 20));
  render(g, s, session.theme, W, H, fontFamily);
  const done = performance.now();
  perf.frames.push(done - t);
  perf.latency.push(done - requestedAt);
  if (perf.frames.length > 1000) perf.frames.splice(0, 500);
  if (perf.latency.length > 1000) perf.latency.splice(0, 500);
  if (!perf.firstPaint) perf.firstPaint = performance.now();
  // The first frame of the whole file's model (after a preview, or at once for a small file).
  if (!perf.completePaint && !session.previewShown) perf.completePaint = performance.now();
  vscode.setState({ uri: session.uri, view: [s.viewport.start, s.viewport.end], scrollY: s.scrollY } satisfies Saved);
}
