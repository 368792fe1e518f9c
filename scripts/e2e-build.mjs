// Shared by the end-to-end runners (code-server: scripts/e2e.mjs and scripts/e2e-web.mjs, desktop
// VS Code: scripts/e2e-electron.mjs): bundles the extension-host suite, prepares a scratch
// workspace, sets up code-server and runs a harness under a time limit.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './package-vsix.mjs';
import { ensureVSCode } from './vscode-setup.mjs';

export const SUITE_OUT = join(ROOT, 'out', 'e2e', 'suite');
/** Empty extension given as extensionDevelopmentPath, so the suite runs against the installed .vsix. */
export const RUNNER_EXTENSION = join(ROOT, 'test', 'e2e', 'runner-ext');

/** Bundles test/e2e/suite/{index,*.test}.ts into out/e2e/suite/; returns the index module path. */
export async function buildSuite() {
  const dir = join(ROOT, 'test', 'e2e', 'suite');
  rmSync(SUITE_OUT, { recursive: true, force: true });
  const entryPoints = readdirSync(dir).filter((n) => n === 'index.ts' || n.endsWith('.test.ts')).map((n) => join(dir, n));
  await esbuild.build({
    entryPoints, outdir: SUITE_OUT, bundle: true, platform: 'node', format: 'cjs', target: 'node20', sourcemap: 'inline',
    // vscode is the host's API; mocha is loaded from node_modules (it requires its reporters dynamically).
    external: ['vscode', 'mocha'], logLevel: 'warning',
  });
  return join(SUITE_OUT, 'index');
}

/** A scratch copy of examples/, so tests may write files without touching the repository. */
export function prepareWorkspace() {
  const base = mkdtempSync(join(tmpdir(), 'npu-e2e-'));
  const ws = join(base, 'workspace');
  mkdirSync(ws);
  cpSync(join(ROOT, 'examples'), ws, { recursive: true });
  return { base, workspace: ws };
}

/** Ends the run with a message tagged as the runner's (`e2e`, `e2e-web`). */
export function failer(tag) {
  return (msg) => {
    process.stderr.write(`[${tag}] FAILED: ${msg}\n`);
    process.exit(1);
  };
}

/** code-server and Chromium (installed once, then cached); the run fails when they cannot be had. */
export function codeServerTools(fail) {
  let tools;
  try {
    tools = ensureVSCode();
  } catch (err) {
    fail(`could not set up code-server/Chromium: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!tools.chromium) fail('no Chromium found after set-up');
  return tools;
}

/**
 * Runs a harness (test/e2e/harness/*.ts) with its configuration in NPU_E2E_CONFIG, stopped after
 * `limitMs` (a hard limit well inside CI's budget; the harness has finer ones); true when it passed.
 */
export function runHarness(tag, harness, config, limitMs) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, harness)],
    { cwd: ROOT, stdio: 'inherit', timeout: limitMs, killSignal: 'SIGTERM', env: { ...process.env, NPU_E2E_CONFIG: JSON.stringify(config) } });
  if (r.error?.code === 'ETIMEDOUT') process.stderr.write(`[${tag}] FAILED: the run took longer than ${limitMs / 60_000} min and was stopped\n`);
  return r.status === 0;
}
