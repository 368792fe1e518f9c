import { existsSync, mkdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';

/** The checkout's root, found from here whether the bench runs bundled (out/bench) or from source. */
export const REPO = (() => {
  let d = __dirname;
  while (!existsSync(join(d, 'package.json')) && dirname(d) !== d) d = dirname(d);
  return d;
})();

export const DATA = join(REPO, 'bench/.data');

export function dataFile(name: string): string {
  if (!existsSync(DATA)) mkdirSync(DATA, { recursive: true });
  return join(DATA, name);
}

export function exists(file: string): boolean {
  return existsSync(file) && statSync(file).size > 0;
}

export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Runs `f` and returns wall and CPU milliseconds (CPU time is less disturbed by other load). */
export async function timed<T>(f: () => Promise<T> | T): Promise<{ wall: number; cpu: number; value: T }> {
  (globalThis as { gc?: () => void }).gc?.();
  const c = cpuMs();
  const t = performance.now();
  const value = await f();
  return { wall: performance.now() - t, cpu: cpuMs() - c, value };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

export const fmt = (n: number, d = 0) => n.toFixed(d);

/** The smallest and largest of `xs`, as a row writes a range. */
export const range = (xs: number[]) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;

/** One measured figure: printed, and kept for bench/RESULTS.md (see results.ts). */
export interface Row {
  name: string;
  value: string;
  target: string;
}

/** The rows printed since the run began, in order. */
export const rows: Row[] = [];

export function row(name: string, value: string, target = ''): void {
  rows.push({ name, value, target });
  console.log(`  ${name.padEnd(58)} ${value.padStart(22)}  ${target}`);
}

/** The machine's load averages (1, 5, 15 min) now, for a row's note: a ratio measured on a loaded machine says so. */
export function loadNow(): string {
  return `load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;
}
