/**
 * Brings one timeline item into view in the page, as the journeys need before a click: the page's
 * `__timeline` hook gives the model and the layout, so a journey clicks where the page drew it.
 */
import type { Frame } from 'playwright-core';

/** Which item: the `nth` (0-based) with this name and/or kind; `complete` wants a START and an END line. */
export interface ItemPick {
  name?: string;
  kind?: number;
  complete?: boolean;
  nth?: number;
  /** At least this much time on each side of the item (the zoom). */
  pad?: number;
}

/** The item's index, lines, characters on its line (one-line files; -1 without) and centre on the canvas. */
export interface Revealed {
  i: number;
  line: number;
  endLine: number;
  char: number;
  charEnd: number;
  x: number;
  y: number;
}

interface PageTimeline {
  __timeline: {
    redraw(): void;
    state(): {
      scrollY: number;
      bands: { kind: string; rowFrom: number; rowTo: number; y: number; h: number }[];
      index: { rowOfItem: ArrayLike<number> };
      model: {
        strings: string[];
        items: { start: Float64Array; end: Float64Array; name: Uint32Array; kind: Uint8Array; line: Uint32Array; endLine: Uint32Array };
        chars?: { char: Uint32Array; charEnd: Uint32Array };
      };
      viewport: { width: number; x(t: number): number; set(a: number, b: number, bounds: unknown): void };
    } | undefined;
  };
}

export function revealItem(frame: Frame, pick: ItemPick): Promise<Revealed> {
  return frame.evaluate(async (p) => {
    const tl = (window as unknown as PageTimeline).__timeline;
    const s = tl.state()!;
    const it = s.model.items;
    const want = p.nth ?? 0;
    let i = -1;
    for (let k = 0, seen = 0; k < it.start.length && i < 0; k++) {
      if (p.name !== undefined && s.model.strings[it.name[k]] !== p.name) continue;
      if (p.kind !== undefined && it.kind[k] !== p.kind) continue;
      if (p.complete && it.endLine[k] === 0xffffffff) continue;
      if (seen++ === want) i = k;
    }
    if (i < 0) throw new Error(`no item ${JSON.stringify(p)} in the timeline`);
    const pad = Math.max(p.pad ?? 1, it.end[i] - it.start[i]);
    s.viewport.set(it.start[i] - pad, it.end[i] + pad, s.model);
    tl.redraw();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const row = s.index.rowOfItem[i];
    const band = s.bands.find((b) => b.kind === 'slices' && row >= b.rowFrom && row < b.rowTo)!;
    s.scrollY = Math.max(0, band.y - 100);
    tl.redraw();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const header = document.getElementById('canvas')!.clientWidth - s.viewport.width;
    const c = s.model.chars;
    return {
      i, line: it.line[i], endLine: it.endLine[i], char: c ? c.char[i] : -1, charEnd: c ? c.charEnd[i] : -1,
      x: header + s.viewport.x((it.start[i] + it.end[i]) / 2), y: 36 + band.y - s.scrollY + band.h / 2,
    };
  }, pick);
}
