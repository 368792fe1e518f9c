import { ATTRS, type TimelineModel } from '../core/timeline/model';
import { layoutBands, Viewport, type Band } from './layout';
import { filterRows, type FilteredRows } from './filterView';
import { ModelIndex } from './query';

/** Everything the renderer and the input handlers share about the current view. */
export class ViewState {
  readonly viewport = new Viewport();
  readonly collapsed = new Set<number>();
  bands: Band[] = [];
  contentHeight = 0;
  /** -1 colours by resource kind; otherwise an index into ATTRS. */
  colourBy = -1;
  /** Filter: attribute index and value; items whose context does not match are not drawn. */
  filter: { attr: number; value: string } | undefined;
  /** Per context: 1 when its items pass the filter. */
  ctxPass: Uint8Array;
  /** The passing items per row while a filter is on (what the renderer walks); undefined without a filter. */
  filtered: FilteredRows | undefined;
  /** Per context: palette slot for the current colour-by, or -1 (absent value). */
  ctxColour: Int16Array;
  selected = -1;
  /** When set, the items marked 0 are drawn muted (a compared group's items stand out: webview/compare/). */
  highlight: Uint8Array | undefined;
  /** Every flow in view, not only the selection's (the toolbar's Flows button). */
  showAllFlows = false;
  /** Flow arrows drawn in the last frame (what a test can read of the canvas). */
  arrowsDrawn = 0;
  hover = -1;
  /** The ruler's origin when not the model's start (Compare Timelines: the marker both runs are aligned at). */
  axis: { t0: number; from: string } | undefined;
  range: [number, number] | undefined;
  scrollY = 0;
  /** Whether the user has zoomed or panned (a preview is then not refitted when the full model comes). */
  moved = false;
  readonly index: ModelIndex;

  constructor(readonly model: TimelineModel) {
    this.index = new ModelIndex(model);
    const nCtx = model.ctxAttrs.length / ATTRS.length;
    this.ctxPass = new Uint8Array(nCtx).fill(1);
    this.ctxColour = new Int16Array(nCtx).fill(-1);
    this.relayout();
    this.viewport.set(model.t0, model.t1, model);
  }

  relayout(): void {
    const { bands, height } = layoutBands(this.model, this.collapsed);
    this.bands = bands;
    this.contentHeight = height;
  }

  get filtering(): boolean {
    return this.filter !== undefined;
  }

  passes(i: number): boolean {
    return this.ctxPass[this.model.items.ctx[i]] === 1;
  }

  setColourBy(attr: number, paletteSize: number): void {
    this.colourBy = attr;
    const m = this.model;
    // Slots follow the value's first appearance in the string table: stable across redraws and reloads.
    for (let c = 0; c < this.ctxColour.length; c++) {
      const s = attr < 0 ? 0 : m.ctxAttrs[c * ATTRS.length + attr];
      this.ctxColour[c] = s === 0 ? -1 : hash(m.strings[s]) % paletteSize;
    }
  }

  setFilter(f: { attr: number; value: string } | undefined): void {
    this.filter = f;
    const m = this.model;
    for (let c = 0; c < this.ctxPass.length; c++) this.ctxPass[c] = !f || m.strings[m.ctxAttrs[c * ATTRS.length + f.attr]] === f.value ? 1 : 0;
    this.filtered = f ? filterRows(m, this.ctxPass) : undefined;
  }

  /** Distinct values of an attribute in this model, sorted (numbers as numbers). */
  values(attr: number): string[] {
    const m = this.model;
    const seen = new Set<string>();
    for (let c = 0; c < this.ctxPass.length; c++) {
      const s = m.ctxAttrs[c * ATTRS.length + attr];
      if (s) seen.add(m.strings[s]);
    }
    return [...seen].sort(new Intl.Collator('en', { numeric: true }).compare);
  }
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
