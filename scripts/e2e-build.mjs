// Shared by the two end-to-end runners (code-server: scripts/e2e.mjs, desktop VS Code:
// scripts/e2e-electron.mjs): bundles the extension-host suite and prepares a scratch workspace.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './package-vsix.mjs';

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
