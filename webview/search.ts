import { KIND } from '../core/timeline/model';
import type { ViewState } from './state';

/** Event types each kind is drawn from, so "DMA_END" or "te_start" finds the right items. */
const TYPE_NAMES: Record<number, string[]> = {
  [KIND.command]: ['CMD_START', 'CMD_END', 'COMMAND'], [KIND.job]: ['JOB_ISSUE', 'JOB_DONE', 'JOB'],
  [KIND.te]: ['TE_START', 'TE_END'], [KIND.ve]: ['VE_START', 'VE_END'], [KIND.dma]: ['DMA_START', 'DMA_END'],
  [KIND.dram]: ['DRAM_TX_START', 'DRAM_TX_END'], [KIND.noc]: ['NOC_TX_START', 'NOC_TX_END'],
  [KIND.irq]: ['IRQ_EMIT'], [KIND.token]: ['TOKEN_COMPLETE'], [KIND.sramConflict]: ['SRAM_CONFLICT'],
  [KIND.error]: ['ERROR'], [KIND.warn]: ['WARN'], [KIND.slice]: ['SLICE'], [KIND.marker]: ['MARKER'],
};

/** Finds items by id (a number) or by type / name (text), in time order, with next/previous. */
export class Search {
  private matches: Uint32Array = new Uint32Array(0);
  private cur = -1;
  private query = '';

  run(s: ViewState, q: string): void {
    this.query = q.trim();
    this.cur = -1;
    const it = s.model.items, n = it.start.length;
    const out: number[] = [];
    if (/^\d+$/.test(this.query)) {
      const id = Number(this.query);
      for (let i = 0; i < n; i++) if (it.id[i] === id) out.push(i);
    } else if (this.query) {
      const u = this.query.toUpperCase();
      const kinds = new Set(Object.entries(TYPE_NAMES).filter(([, names]) => names.some((t) => t.includes(u))).map(([k]) => Number(k)));
      const names = new Set<number>();
      s.model.strings.forEach((str, k) => { if (str.toUpperCase().includes(u)) names.add(k); });
      for (let i = 0; i < n; i++) if (kinds.has(it.kind[i]) || names.has(it.name[i])) out.push(i);
    }
    out.sort((a, b) => it.start[a] - it.start[b] || a - b);
    this.matches = Uint32Array.from(out);
  }

  /** Moves to the next (1) or previous (-1) match and returns it, or -1 when none. */
  step(dir: 1 | -1): number {
    const n = this.matches.length;
    if (!n) return -1;
    this.cur = this.cur < 0 ? (dir > 0 ? 0 : n - 1) : (this.cur + dir + n) % n;
    return this.matches[this.cur];
  }

  describe(): string {
    if (!this.query) return '';
    if (!this.matches.length) return 'no match';
    return `${this.cur < 0 ? '–' : this.cur + 1} of ${this.matches.length.toLocaleString('en-US')}`;
  }
}
