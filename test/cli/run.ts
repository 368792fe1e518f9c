import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (`npm test` builds first) and resolves when it exits. */
export function runCli(args: string[], cwd = ROOT, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    p.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
