// A decoded profiler buffer as Chrome Trace Event JSON through the one exporter (core/export/):
// its timeline model has a group per block and a track per group, so the exporter gives one pid
// per block and one tid per group. A region's args are its START and END records (slot, raw hex,
// decoded fields), so a span clicked in Perfetto says what the panel's details say.
import { argsAsJson, ChromeTraceExporter } from '../export/chromeTrace';
import { kprofTimeline } from './timeline';
import type { Decoded } from './decode';
import { recordJson } from './records';
import type { ProfBuffer } from './words';

/**
 * The export in pieces, in order (never the whole output: 8M regions are gigabytes of JSON), so
 * the caller writes each as it comes and may pause between them (the editor keeps its host
 * responsive and cancellable). Source "lines" are slots: only slots that hold a region's or an
 * instant's record are visited, in slot order, as the exporter needs.
 */
export function* kprofChromeTracePieces(buf: ProfBuffer, d: Decoded, source: string): Generator<string> {
  const exporter = new ChromeTraceExporter(kprofTimeline(d), { source, argsOf: argsAsJson });
  yield exporter.head();
  const used = new Uint8Array(d.slots);
  for (let i = 0; i < d.regionCount; i++) used[d.regStartSlot[i]] = used[d.regEndSlot[i]] = 1;
  for (let i = 0; i < d.instantCount; i++) used[d.instSlot[i]] = 1;
  const names: string[] = [];
  for (let s = 0; s < d.slots; s++) {
    if (!used[s]) continue;
    const piece = exporter.line(recordJson(buf, d, s, names), s);
    if (piece) yield piece;
  }
  yield exporter.tail();
}

/** The same, written to `write` in one go (the CLI). */
export function kprofChromeTrace(buf: ProfBuffer, d: Decoded, source: string, write: (s: string) => void): void {
  for (const piece of kprofChromeTracePieces(buf, d, source)) write(piece);
}
