// The browser build end to end (issue #19): the extension in VS Code's *web* extension host, as in
// vscode.dev, driven in code-server + headless Chromium like scripts/e2e.mjs.
//   npm run test:e2e:web [-- --update-screenshot] [-- --keep]
// The extension under test is a copy of what the .vsix ships (the .vscodeignore allow-list's files)
// whose package.json has `extensionKind: ["web"]` and no `main`, loaded as the workbench's
// extensionDevelopmentPath (vsce refuses to package the kind "web"): VS Code can then only run
// dist/web/extension.js, and only in its web worker extension host.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureVSCode } from './vscode-setup.mjs';
import { ROOT } from './package-vsix.mjs';
import { prepareWorkspace } from './e2e-build.mjs';

function fail(msg) {
  process.stderr.write(`[e2e-web] FAILED: ${msg}\n`);
  process.exit(1);
}

/** Copies the built extension into `stage` as a web-only extension. */
function stageWebExtension(stage, build) {
  if (build) {
    const b = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--production'], { cwd: ROOT, stdio: 'inherit' });
    if (b.status !== 0) fail('the build failed');
  }
  for (const f of ['dist', 'syntaxes', 'schemas', 'images/icon.png', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
    cpSync(join(ROOT, f), join(stage, f), { recursive: true, filter: (src) => !src.endsWith('.map') });
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  delete pkg.main;
  pkg.extensionKind = ['web'];
  writeFileSync(join(stage, 'package.json'), JSON.stringify(pkg, null, 2));
}

if (process.env.NPU_E2E === 'skip') {
  process.stderr.write('[e2e-web] SKIPPED because NPU_E2E=skip: the browser build was NOT tested in a real VS Code\n');
  process.exit(0);
}

let tools;
try {
  tools = ensureVSCode();
} catch (err) {
  fail(`could not set up code-server/Chromium: ${err instanceof Error ? err.message : String(err)}`);
}
if (!tools.chromium) fail('no Chromium found after set-up');
const stage = mkdtempSync(join(tmpdir(), 'npu-web-ext-'));
stageWebExtension(stage, !process.argv.includes('--no-build'));
const { base, workspace } = prepareWorkspace();
const config = {
  root: ROOT, codeServer: tools.codeServer, chromium: tools.chromium, extension: stage, base, workspace,
  updateScreenshot: process.argv.includes('--update-screenshot'), keep: process.argv.includes('--keep'),
};
const LIMIT_MS = 5 * 60_000;
const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test/e2e/harness/web.ts')],
  { cwd: ROOT, stdio: 'inherit', timeout: LIMIT_MS, killSignal: 'SIGTERM', env: { ...process.env, NPU_E2E_CONFIG: JSON.stringify(config) } });
if (r.error?.code === 'ETIMEDOUT') process.stderr.write(`[e2e-web] FAILED: the run took longer than ${LIMIT_MS / 60_000} min and was stopped\n`);
if (!config.keep) rmSync(stage, { recursive: true, force: true });
process.exit(r.status === 0 ? 0 : 1);
