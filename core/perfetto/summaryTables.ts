import type { Analysis } from '../nnapi/analysis';
import { nnapiSummaryTables } from '../nnapi/summaryTables';
import { MAX_FORMAT_ROWS, MAX_FORMAT_TABLES, numCell, textCell, type FormatTable } from '../timeline/formatTables';

/** Slice names kept per track and track×name pairs in all: a file can hold millions of distinct names. */
const MAX_PAIRS = 200_000;
/** Rows per track in the table: its busiest names. */
export const BUSIEST_PER_TRACK = 10;

interface Tally { count: number; total: number; max: number }

/**
 * The closed slices of a protobuf trace per track and name, tallied as the reader hands them on
 * (count, total and longest duration in ns): what the Summary's "busiest slices" table is made of.
 */
export class SliceTally {
  private readonly byTrack = new Map<number, Map<string, Tally>>();
  private pairs = 0;
  /** Slices not tallied because the cap on distinct names was reached. */
  dropped = 0;

  add(track: number, name: string, dur: number): void {
    if (!(dur >= 0)) return;
    let names = this.byTrack.get(track);
    if (!names) this.byTrack.set(track, (names = new Map()));
    let t = names.get(name);
    if (!t) {
      if (this.pairs >= MAX_PAIRS) {
        this.dropped++;
        return;
      }
      this.pairs++;
      names.set(name, (t = { count: 0, total: 0, max: 0 }));
    }
    t.count++;
    t.total += dur;
    if (dur > t.max) t.max = dur;
  }

  /**
   * The table: per track (in the order `trackName` sorts them), its `BUSIEST_PER_TRACK` slice names
   * by total time, in ms; capped at `MAX_FORMAT_ROWS` rows.
   */
  table(trackName: (track: number) => string): FormatTable {
    const tracks = [...this.byTrack.keys()].map((k) => [k, trackName(k)] as const).sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] - b[0]));
    const rows: FormatTable['rows'] = [];
    for (const [k, name] of tracks) {
      const all = [...this.byTrack.get(k)!].sort((a, b) => b[1].total - a[1].total || (a[0] < b[0] ? -1 : 1));
      const busy = all.reduce((s, [, t]) => s + t.total, 0);
      for (const [slice, t] of all.slice(0, BUSIEST_PER_TRACK)) {
        if (rows.length >= MAX_FORMAT_ROWS) break;
        rows.push([textCell(name), textCell(slice), t.count, numCell(t.total / 1e6), numCell(t.max / 1e6), numCell(busy > 0 ? t.total / busy : Number.NaN)]);
      }
    }
    return {
      id: 'busiest-slices',
      title: `Busiest slices per thread (the ${BUSIEST_PER_TRACK} longest in total per track; nested slices count in their parents too)${this.dropped ? `; ${this.dropped} slices past ${MAX_PAIRS} distinct names not counted` : ''}`,
      columns: [{ label: 'track', kind: 'text' }, { label: 'slice', kind: 'text' }, { label: 'count', kind: 'int' },
        { label: 'total ms', kind: 'int' }, { label: 'max ms', kind: 'int' }, { label: 'share of track', kind: 'pct' }],
      rows,
    };
  }
}

/** The Summary tables of a protobuf trace: its busiest slices per thread, then (with NNAPI marks) the NNAPI timing summary of `nnapi-stats`. */
export function perfettoSummaryTables(tally: SliceTally, trackName: (track: number) => string, nnapi: Analysis | undefined): FormatTable[] {
  const tables = [tally.table(trackName)];
  if (nnapi) tables.push(...nnapiSummaryTables(nnapi).slice(0, MAX_FORMAT_TABLES - 1));
  return tables;
}
