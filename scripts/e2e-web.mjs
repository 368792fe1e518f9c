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
import { ROOT } from './package-vsix.mjs';
import { codeServerTools, failer, prepareWorkspace, runHarness } from './e2e-build.mjs';

const fail = failer('e2e-web');

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

const tools = codeServerTools(fail);
const stage = mkdtempSync(join(tmpdir(), 'npu-web-ext-'));
stageWebExtension(stage, !process.argv.includes('--no-build'));
const { base, workspace } = prepareWorkspace();
const config = {
  root: ROOT, codeServer: tools.codeServer, chromium: tools.chromium, extension: stage, base, workspace,
  updateScreenshot: process.argv.includes('--update-screenshot'), keep: process.argv.includes('--keep'),
};
const passed = runHarness('e2e-web', 'test/e2e/harness/web.ts', config, 5 * 60_000);
if (!config.keep) rmSync(stage, { recursive: true, force: true });
process.exit(passed ? 0 : 1);
