/**
 * The kernel-profiler buffer's pane (the Summary tab of its panel): the header facts, the
 * statistics tables (sortable, Copy/Save as CSV: drawn by the Summary's own table view) and the
 * overlap of a chosen pair of groups, computed by the host. Every value from the file is set as
 * textContent, never as HTML.
 */
import type { KprofOverlap, KprofRange, KprofSummary } from '../core/kprof/summary';
import { factPairs, overlapSentence, overlapTable, statTable } from './kprofTables';
import type { SummaryView } from './summary';

export interface KprofPaneHandlers {
  /** Ask the host for the overlap of group a's region time with group b's. */
  overlap(a: number, b: number): void;
}

/** Groups offered in the pickers at most (a header can claim 4096). */
const MAX_PICK = 1024;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export class KprofPane {
  private summary: KprofSummary | undefined;
  private overlap: { a: number; b: number; result: KprofOverlap | null; message: string } | undefined;
  /** The timeline range selected (Shift+drag) and, once the host answers, its statistics. */
  private range: { from: number; to: number; result: KprofRange | undefined } | undefined;

  constructor(private readonly host: HTMLElement, private readonly tables: SummaryView, private readonly h: KprofPaneHandlers) {}

  setSummary(s: KprofSummary): void {
    // Another launch or other names: an overlap of the previous one no longer holds.
    this.summary = s;
    this.overlap = undefined;
    this.range = undefined;
  }

  /** A range was selected (asked of the host), or cleared. */
  askRange(r: readonly [number, number] | undefined): void {
    this.range = r ? { from: r[0], to: r[1], result: undefined } : undefined;
  }

  /** The host's statistics of a range: kept when it is for the range last selected. */
  setRange(x: KprofRange): boolean {
    if (!this.range || this.range.from !== x.from_ns || this.range.to !== x.to_ns) return false;
    this.range.result = x;
    return true;
  }

  /**
   * The host's answer: kept when it is for the pair last asked for, or when none is asked (the
   * "Overlap of Two Groups" command sends the pair picked in its quick picks).
   */
  setOverlap(result: KprofOverlap | null, message: string): void {
    const asked = this.overlap && !this.overlap.result ? this.overlap : undefined;
    if (asked && result && (result.group_a !== asked.a || result.group_b !== asked.b)) return;
    if (!asked && !result) return;
    this.overlap = { a: result?.group_a ?? asked!.a, b: result?.group_b ?? asked!.b, result, message };
  }

  render(): void {
    const s = this.summary;
    const head = el('div', 'sum-head');
    head.append(el('h2', undefined, 'Kernel profiler buffer'));
    if (!s) {
      this.host.replaceChildren(head, el('p', 'muted', 'Decoding…'));
      return;
    }
    const facts = el('p', 'sum-facts kprof-facts');
    for (const [k, v] of factPairs(s.facts)) facts.append(el('span', 'muted', `${k} `), el('span', undefined, v), ' · ');
    facts.lastChild?.remove();
    const parts: HTMLElement[] = [head, facts];
    // Said first, not only among the facts: the numbers below miss what the writer could not store.
    if (s.facts.full_lanes > 0) {
      const most = s.facts.full_lanes * 2 > s.facts.lanes;
      parts.push(el('p', 'kprof-warning', `⚠ ${most ? 'Most lanes' : `${s.facts.full_lanes} of ${s.facts.lanes} lanes`} ran out of buffer: records past its end were dropped by the writer, so regions are missing from the timeline and the statistics (kprof.buffer-full in the Problems panel says how large a buffer they needed).`));
    }
    parts.push(...this.rangeSection(s));
    for (const t of s.tables) {
      if (t.by === 'block' && s.facts.num_blocks < 2) continue;
      if (t.by === 'group' && s.facts.num_groups < 2) continue;
      parts.push(this.tables.table(statTable(t)));
      if (t.omitted) parts.push(el('p', 'muted', `${t.omitted} more rows are not in this table (npu-trace kprof --json lists them).`));
    }
    parts.push(this.overlapSection(s));
    this.host.replaceChildren(...parts);
  }

  private rangeSection(s: KprofSummary): HTMLElement[] {
    const r = this.range;
    if (!r) return [];
    const span = `${Math.round(r.from).toLocaleString('en-US')}–${Math.round(r.to).toLocaleString('en-US')} ns`;
    const res = r.result;
    if (!res) return [el('p', 'muted kprof-range', `Selected range ${span}: computing its statistics…`)];
    const out: HTMLElement[] = [el('p', 'kprof-range', `Selected range ${span}: ${res.regions.toLocaleString('en-US')} region(s) overlap it; each counts its time inside the range.`)];
    for (const t of res.tables) {
      if (t.by === 'group' && s.facts.num_groups < 2) continue;
      out.push(this.tables.table(statTable(t, `range ${span}`)));
      if (t.omitted) out.push(el('p', 'muted', `${t.omitted} more rows are not in this table.`));
    }
    return out;
  }

  private overlapSection(s: KprofSummary): HTMLElement {
    const sec = el('section', 'sum-table kprof-overlap');
    const title = el('div', 'sum-title');
    title.append(el('h3', undefined, 'Overlap of two groups'));
    sec.append(title);
    const groups = Math.min(s.facts.num_groups, MAX_PICK);
    if (groups < 2) {
      sec.append(el('p', 'muted', 'One group per block: nothing to overlap.'));
      return sec;
    }
    const pick = (id: string, label: string, value: number) => {
      const select = el('select');
      select.id = id;
      select.setAttribute('aria-label', label);
      for (let g = 0; g < groups; g++) {
        const o = el('option', undefined, `group ${g}`);
        o.value = String(g);
        select.append(o);
      }
      select.value = String(value);
      return select;
    };
    const a = pick('kprofGroupA', 'First group (producer)', this.overlap?.a ?? 0);
    const b = pick('kprofGroupB', 'Second group (consumer)', this.overlap?.b ?? 1);
    const go = el('button', 'link', 'Compute overlap');
    go.type = 'button';
    go.id = 'kprofOverlapGo';
    go.addEventListener('click', () => {
      const x = Number(a.value), y = Number(b.value);
      this.overlap = { a: x, b: y, result: null, message: x === y ? 'Pick two different groups.' : 'Computing…' };
      if (x !== y) this.h.overlap(x, y);
      sec.replaceWith(this.overlapSection(s));
    });
    const form = el('p', 'kprof-pick');
    form.append('How much of ', a, '\u2019s region time overlaps ', b, '\u2019s? ', go);
    sec.append(form);
    const o = this.overlap;
    if (o?.result) {
      sec.append(el('p', 'kprof-overlap-total', overlapSentence(o.result)), this.tables.table(overlapTable(o.result)));
      if (o.result.blocks_omitted) sec.append(el('p', 'muted', `${o.result.blocks_omitted} more blocks are not in this table.`));
    } else if (o) sec.append(el('p', 'muted', o.message));
    return sec;
  }
}
