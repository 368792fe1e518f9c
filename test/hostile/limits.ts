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
  /** Peak resident set size the process reported at exit (MB); NaN when it died before. */
  peakMb: number;
  timedOut: boolean;
}

/**
 * Runs `node dist/cli.js ...args` and kills it after `timeoutMs`. The peak RSS is read by a preload
 * that reports `process.resourceUsage().maxRSS` when the process exits, so it is the CLI's own peak:
 * the child gets no loader of the test runner's (programEnv).
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
    const timer = setTimeout(() => { timedOut = true; p.kill('SIGKILL'); }, timeoutMs);
    p.stdout.setEncoding('utf8').on('data', (s: string) => { if (stdout.length < maxOutput) stdout += s; });
    p.stderr.setEncoding('utf8').on('data', (s: string) => { if (stderr.length < maxOutput) stderr += s; });
    p.stdin.on('error', () => undefined);
    p.stdin.end(opts.input ?? '');
    p.on('error', (e) => { clearTimeout(timer); reject(e); });
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      let peakMb = NaN;
      try { peakMb = Number(readFileSync(rssFile, 'utf8')) / 1024; } catch { /* died before exit */ }
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, signal, stdout, stderr, ms: performance.now() - t0, peakMb, timedOut });
    });
  });
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
