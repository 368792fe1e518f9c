// Runs the built CLI and server on hostile input with limits on time and memory. The limits are
// generous (far from a crash or a hang) and assert that a cost is bounded, not how fast it is.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { programEnv } from '../childEnv';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');
const PRELOAD = join(__dirname, 'rss-preload.cjs');

export interface LimitedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time of the whole process, start-up included. */
  ms: number;
  /**
   * CPU time (user + system, all threads) the process reported at exit (ms); NaN when it died
   * before. What a time limit asserts: on a loaded machine wall time measures the neighbours.
   */
  cpuMs: number;
  /** Peak resident set size the process reported at exit (MB); NaN when it died before. */
  peakMb: number;
  /** Killed for using more than its CPU time limit (or, blocked, 10 times that in wall time). */
  timedOut: boolean;
}

/**
 * Runs `node dist/cli.js ...args` and kills it once it has used `timeoutMs` of CPU time (or, if it
 * stops using CPU, ten times that of wall time). Peak RSS and CPU time are read by a preload that
 * reports `process.resourceUsage()` when the process exits, so they are the CLI's own: the child
 * gets no loader of the test runner's (programEnv).
 */
export function runCliLimited(args: string[], timeoutMs: number, opts: { input?: Buffer | string; maxOutput?: number } = {}): Promise<LimitedRun> {
  const dir = mkdtempSync(join(tmpdir(), 'npu-hostile-'));
  const rssFile = join(dir, 'rss');
  const maxOutput = opts.maxOutput ?? 16 << 20;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, ['--require', PRELOAD, CLI, ...args], {
      cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: programEnv({ NPU_HOSTILE_RSS_FILE: rssFile }),
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const kill = () => { timedOut = true; p.kill('SIGKILL'); };
    const watch = setInterval(() => {
      try {
        if (cpuMsOf(p.pid!) > timeoutMs) kill();
      } catch { /* exited meanwhile */ }
    }, Math.min(200, timeoutMs));
    const timer = setTimeout(kill, 10 * timeoutMs);
    const stop = () => { clearInterval(watch); clearTimeout(timer); };
    p.stdout.setEncoding('utf8').on('data', (s: string) => { if (stdout.length < maxOutput) stdout += s; });
    p.stderr.setEncoding('utf8').on('data', (s: string) => { if (stderr.length < maxOutput) stderr += s; });
    p.stdin.on('error', () => undefined);
    p.stdin.end(opts.input ?? '');
    p.on('error', (e) => { stop(); reject(e); });
    p.on('close', (code, signal) => {
      stop();
      let peakMb = NaN, cpuMs = NaN;
      try {
        const [kb, us] = readFileSync(rssFile, 'utf8').split(' ').map(Number);
        peakMb = kb / 1024;
        cpuMs = us / 1000;
      } catch { /* died before exit */ }
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, signal, stdout, stderr, ms: performance.now() - t0, cpuMs, peakMb, timedOut });
    });
  });
}

/** CPU time (user + system, ms, all its threads) a live process has used so far, from Linux's /proc. */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

/** Peak RSS (MB) of a live process so far, from Linux's `VmHWM`. */
export function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM for ${pid}`);
  return Number(m[1]) / 1024;
}

/** A scratch directory removed by the returned function. */
export function scratch(): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'npu-hostile-'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}
