// The same extension-host suite as scripts/e2e.mjs, under a desktop VS Code that @vscode/test-electron
// downloads from Microsoft (so not on machines limited to npm and Debian: there use `npm run test:e2e`).
//   npm run test:e2e:electron            (VSCODE_VERSION=1.100.3 or stable/insiders to choose)
// Like the code-server runner it tests the packaged .vsix as installed: the .vsix goes into a fresh
// extensions dir with the VS Code CLI, and the empty runner extension is the development path.
// The Playwright UI journeys need the browser workbench and run only under scripts/e2e.mjs.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { downloadAndUnzipVSCode, resolveCliArgsFromVSCodeExecutablePath, runTests } from '@vscode/test-electron';
import { packageVsix } from './package-vsix.mjs';
import { buildSuite, prepareWorkspace, RUNNER_EXTENSION } from './e2e-build.mjs';

async function main() {
  const vsix = packageVsix();
  const suite = await buildSuite();
  const vscodeExecutablePath = await downloadAndUnzipVSCode(process.env.VSCODE_VERSION ?? '1.100.3');
  const { base, workspace } = prepareWorkspace();
  const extensionsDir = join(base, 'extensions');
  const userDataDir = join(base, 'user-data');
  try {
    const [cli] = resolveCliArgsFromVSCodeExecutablePath(vscodeExecutablePath, { reuseMachineInstall: true });
    const install = spawnSync(cli, ['--install-extension', vsix, '--force', '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir], {
      encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32',
    });
    if (install.status !== 0) throw new Error(`installing ${vsix} failed:\n${install.stdout}${install.stderr}`);
    return await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: RUNNER_EXTENSION,
      extensionTestsPath: suite,
      launchArgs: [workspace, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir,
        '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes', '--disable-telemetry'],
    });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code), (err) => {
  const msg = err instanceof Error ? err.message : String(err);
  const offline = /ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN/.test(msg) ? ' (VS Code cannot be downloaded from here: use `npm run test:e2e`, the code-server runner)' : '';
  process.stderr.write(`[e2e-electron] FAILED: ${msg}${offline}\n`);
  process.exit(1);
});
