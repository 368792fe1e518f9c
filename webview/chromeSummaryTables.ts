/**
 * The Summary tab of a Chrome/PyTorch trace: core/chrome/summary.ts's numbers as the Summary's
 * tables (sortable, Copy/Save as CSV and JSON). A kernel's or operator's row filters the timeline
 * by its name and zooms to it, as a phase's row does for an NPU trace. Pure (no DOM).
 */
import type { ChromeSummary, NameStat } from '../core/chrome/summary';
import type { Column, SummaryTable } from './summaryTables';

const int = (label: string): Column => ({ label, kind: 'int' });
const pct = (label: string): Column => ({ label, kind: 'pct' });
const text = (label: string): Column => ({ label, kind: 'text' });
/** µs as the Summary shows them: two decimals at most. */
const us = (v: number) => Math.round(v * 100) / 100;

function nameTable(id: string, title: string, rows: NameStat[]): SummaryTable {
  return {
    id, title,
    columns: [text('name'), int('count'), int('total µs'), int('mean µs'), int('p95 µs'), pct('share')],
    rows: rows.map((r) => [r.name, r.count, us(r.total), us(r.mean), us(r.p95), r.share]),
    // The Chrome model keeps the event name in the `cmd_id` slot (its "name" field).
    targets: rows.map((r) => ({ kind: 'group', attr: 'cmd_id', value: r.name })),
    bars: rows.map(() => []),
    records: rows,
  };
}

export function chromeSummaryTables(s: ChromeSummary): SummaryTable[] {
  const plain = <T>(id: string, title: string, columns: Column[], records: T[], row: (r: T) => SummaryTable['rows'][number]): SummaryTable => ({
    id, title, columns, rows: records.map(row), targets: records.map(() => undefined), bars: records.map(() => []), records,
  });
  return [
    plain('streams', 'GPU streams: busy and idle', [text('stream'), int('items'), int('busy µs'), int('idle µs'), pct('busy')], s.streams,
      (r) => [r.track, r.items, us(r.busy), us(r.idle), r.busyShare]),
    plain('steps', 'Steps (ProfilerStep#N)', [text('step'), int('duration µs'), int('GPU busy µs'), pct('GPU busy'), int('kernels')], s.steps,
      (r) => [r.name, us(r.dur), us(r.gpuBusy), r.gpuShare, r.kernels]),
    nameTable('kernels', 'Top kernels by total time', s.kernels),
    nameTable('cpuOps', 'Top CPU operators by total time (inclusive)', s.cpuOps),
    plain('opGpu', 'CPU operator → GPU time of the kernels it launched (through the flows)', [text('operator'), int('launches'), int('GPU µs')], s.opGpu,
      (r) => [r.name, r.launches, us(r.gpuTime)]),
    plain('copies', 'Memory copies and sets', [text('kind'), int('count'), int('bytes'), int('time µs'), int('GB/s')], s.copies,
      (r) => [r.name, r.count, r.bytes, us(r.time), r.gbPerS === null ? null : us(r.gbPerS)]),
  ];
}
