/**
 * The text and tooltip of the trace status-bar item, from the server's numbers and the problem
 * count: kept apart from the item (no vscode import) so a unit test reads exactly what users see.
 * The tooltip is plain text (not Markdown) and holds only numbers and the file's base name, escaped.
 */
import { escapeControl, MAX_QUOTED } from '../core/common/escape';
import type { TraceStatus } from '../protocol/traceStatus';

const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** Nanoseconds in the largest unit that keeps the number ≥ 1, three significant digits. */
export function formatNs(ns: number): string {
  const units: [number, string][] = [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs']];
  for (const [scale, unit] of units) if (ns >= scale) return `${(ns / scale).toPrecision(3)} ${unit}`;
  return `${ns.toPrecision(3)} ns`;
}

export function statusBarText(s: TraceStatus, problems: number, fileName: string): { text: string; tooltip: string } {
  const span = s.first !== null && s.last !== null ? s.last - s.first : null;
  const time = span === null ? '— cycles' : `${int(span)} cycles${s.nsPerCycle !== null ? ` (${formatNs(span * s.nsPerCycle)})` : ''}`;
  const events = `${int(s.events)} event${s.events === 1 ? '' : 's'}`;
  const probs = `${int(problems)} problem${problems === 1 ? '' : 's'}`;
  const icon = problems ? '$(warning)' : '$(pulse)';
  const name = escapeControl(fileName.length > MAX_QUOTED ? `${fileName.slice(0, MAX_QUOTED)}…` : fileName);
  const window = span === null ? 'no event has a t_cycle' : `cycles ${int(s.first!)}..${int(s.last!)}`;
  const clock = s.nsPerCycle === null ? 'no clock in the trace (TRACE_META clock_ghz / clock_mhz)' : `clock ${(1 / s.nsPerCycle).toPrecision(4)} GHz`;
  return {
    text: `${icon} ${events} · ${time} · ${probs}`,
    tooltip: `${name}: ${events}, ${window}, ${clock}, ${probs}. Click to show the timeline.`,
  };
}

/** What the read-only timeline editor's status item says of its model (no vscode: tested as shown). */
export interface TimelineFacts {
  format: string;
  /** Items drawn (slices, instants, markers). */
  items: number;
  tracks: number;
  /** t1 - t0 in the model's unit; 0 with no item. */
  span: number;
  /** The model's time unit ('ns', 'µs'; absent: cycles) and, for cycles, ns per cycle when known. */
  unit: string | undefined;
  nsPerCycle: number | undefined;
}

/**
 * The status item of a file shown in the read-only timeline editor (a Perfetto protobuf trace, a
 * gzipped trace): events, span, problems, as the NPU trace item reads; the problems are those VS
 * Code holds for the file (its check).
 */
export function timelineStatusText(f: TimelineFacts, problems: number, fileName: string): { text: string; tooltip: string } {
  const ns = f.unit === 'ns' ? f.span : f.unit === 'µs' ? f.span * 1e3 : f.nsPerCycle !== undefined ? f.span * f.nsPerCycle : undefined;
  const time = f.items === 0 ? '—' : ns === undefined ? `${int(f.span)} cycles` : formatNs(ns);
  const events = `${int(f.items)} event${f.items === 1 ? '' : 's'}`;
  const probs = `${int(problems)} problem${problems === 1 ? '' : 's'}`;
  const name = escapeControl(fileName.length > MAX_QUOTED ? `${fileName.slice(0, MAX_QUOTED)}…` : fileName);
  return {
    text: `${problems ? '$(warning)' : '$(pulse)'} ${events} · ${time} · ${probs}`,
    tooltip: `${name} (${escapeControl(f.format)}): ${events} on ${int(f.tracks)} track${f.tracks === 1 ? '' : 's'}, spanning ${time}, ${probs}. Click for the Summary.`,
  };
}
