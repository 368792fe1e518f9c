/**
 * How the timeline writes time. A model's time unit is either the simulator's clock (`cycles`, an
 * NPU trace: absolute cycles read well, with the ns beside them when a clock is known) or a
 * wall-clock unit (`µs` for Chrome, NNAPI and InferScope, `ns` for kernel-profiler buffers and
 * Perfetto), whose absolute values are 13- to 19-digit timestamps nobody can read: those are shown
 * from the trace's start, in the largest unit that keeps a tick short ("250 µs", "1.5 s"), and the
 * absolute value only in the details pane and the hover (#30). Pure: no DOM.
 */

/** The parts of a model the axis needs. */
export interface TimeBase {
  unit?: string;
  nsPerCycle: number | undefined;
  /** The start of the trace (of all drawn items), in the model's unit. */
  t0: number;
  /** What `t0` is, when not the trace's start: Compare Timelines counts from a marker. */
  from?: string;
}

const WALL_UNITS = new Set(['ns', 'µs', 'us', 'ms', 's']);

/** Whether the model's times are wall-clock timestamps (shown from the start) rather than cycles. */
export function isWallClock(b: TimeBase): boolean {
  return WALL_UNITS.has(b.unit ?? 'cycles') && (b.nsPerCycle ?? 0) > 0;
}

const UNITS: [number, string][] = [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs'], [1, 'ns']];

/** The largest unit in which `ns` is at least 1 (ns below that). */
function unitOf(ns: number): [number, string] {
  const a = Math.abs(ns);
  return UNITS.find(([d]) => a >= d) ?? [1, 'ns'];
}

/** A duration in the largest readable unit, with at most `digits` decimals and no trailing zeros. */
export function formatDuration(ns: number, digits = 3): string {
  if (!Number.isFinite(ns)) return '?';
  const [d, name] = unitOf(ns);
  return `${(ns / d).toLocaleString('en-US', { maximumFractionDigits: digits })} ${name}`;
}

/** 1, 2 or 5 times a power of ten, at least `min` (any positive size: a wall clock ticks below 1). */
function nice(min: number): number {
  const p = Math.pow(10, Math.floor(Math.log10(Math.max(min, 1e-12))));
  for (const k of [1, 2, 5]) if (k * p >= min) return k * p;
  return 10 * p;
}

export interface Tick {
  /** Where, in the model's unit. */
  t: number;
  label: string;
}

/** At most this many ticks, whatever the zoom: a ruler is drawn every frame. */
const MAX_TICKS = 400;

/**
 * The ruler's ticks over `start..end` (model units) at `scale` pixels per unit, about `minPx`
 * pixels apart: on a wall clock, times from the trace's start in one unit chosen by the step
 * ("0", "50 µs", "100 µs"); in cycles, the cycles themselves.
 */
export function rulerTicks(b: TimeBase, start: number, end: number, scale: number, minPx = 100): Tick[] {
  const out: Tick[] = [];
  if (!(scale > 0) || !(end > start)) return out;
  if (!isWallClock(b)) {
    const step = Math.max(1, nice(minPx / scale));
    for (let t = Math.ceil(start / step) * step; t <= end && out.length < MAX_TICKS; t += step) out.push({ t, label: (Math.round(t) || 0).toLocaleString('en-US') });
    return out;
  }
  const ns = b.nsPerCycle!;
  const stepNs = nice((minPx / scale) * ns);
  // A step of 500 µs reads better as 0.5 ms; one of 100 µs stays in µs.
  const [d, name] = unitOf(stepNs * 2);
  // Enough decimals for the step (0.5 ms → 1), none for a whole one.
  const digits = Math.max(0, Math.min(9, -Math.floor(Math.log10(stepNs / d) + 1e-9)));
  const k0 = Math.ceil(((start - b.t0) * ns) / stepNs);
  for (let k = k0; out.length < MAX_TICKS; k++) {
    const rel = k * stepNs;
    const t = b.t0 + rel / ns;
    if (t > end) break;
    out.push({ t, label: k === 0 ? '0' : `${(rel / d).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${name}` });
  }
  return out;
}

/** An absolute time as the file wrote it, in the model's unit (up to 3 decimals: Chrome's ts has them). */
export function absoluteTime(b: TimeBase, t: number): string {
  return `${t.toLocaleString('en-US', { maximumFractionDigits: 3 })} ${b.unit ?? 'cycles'}`;
}

/**
 * A point in time for the details pane and the hover: from the start and as written on a wall
 * clock ("+1.25 ms · 4,978,308,801,250 µs"); cycles with their ns when a clock is known.
 */
export function pointInTime(b: TimeBase, t: number): string {
  if (isWallClock(b)) return `+${formatDuration((t - b.t0) * b.nsPerCycle!)} · ${absoluteTime(b, t)}`;
  const cycles = `${(Math.round(t) || 0).toLocaleString('en-US')} cycles`;
  return b.nsPerCycle ? `${cycles} (${formatDuration(t * b.nsPerCycle)})` : cycles;
}

/** A length of time: the largest readable unit on a wall clock; cycles (and their ns) otherwise. */
export function lengthOfTime(b: TimeBase, dt: number): string {
  if (isWallClock(b)) return formatDuration(dt * b.nsPerCycle!);
  const cycles = `${(Math.round(dt) || 0).toLocaleString('en-US')} ${b.unit ?? 'cycles'}`;
  return b.nsPerCycle ? `${cycles} (${formatDuration(dt * b.nsPerCycle)})` : cycles;
}

/** The ruler's two row labels: what its tick labels are, and what its second row holds (or nothing). */
export function rulerLabels(b: TimeBase): [string, string | undefined] {
  const from = b.from ?? 'start';
  if (isWallClock(b)) return [`from ${from}`, `${from} ${absoluteTime(b, b.t0)}`];
  return [b.unit ?? 'cycles', b.nsPerCycle ? 'time' : undefined];
}
