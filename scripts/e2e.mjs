// End-to-end tests in a real VS Code (code-server 4.100.3 in headless Chromium), on the packaged
// .vsix as installed. Called by `npm test` after the unit suites (scripts/run-tests.mjs), or alone:
//   npm run test:e2e [-- --update-screenshot] [-- --keep]
// 1. installs code-server and Chromium once (scripts/vscode-setup.mjs, cached in .vscode-test/),
// 2. packages the extension (scripts/package-vsix.mjs) and bundles test/e2e/suite,
// 3. runs test/e2e/harness/main.ts: installs the .vsix, starts code-server on a free 127.0.0.1 port,
//    runs the mocha suite in the extension host, then the Playwright UI journeys,
// 4. smoke-tests `npm start` (scripts/start.mjs --smoke).
// Screenshots of failures and the workbench console log go to test-results/.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureVSCode } from './vscode-setup.mjs';
import { packageVsix, ROOT } from './package-vsix.mjs';
import { buildSuite, prepareWorkspace, RUNNER_EXTENSION } from './e2e-build.mjs';

// An explicit, loud opt-out for machines without apt (e.g. macOS: use `npm run test:e2e:electron`).
// CI never sets it: there a failing end-to-end run fails `npm test`.
if (process.env.NPU_E2E === 'skip') {
  process.stderr.write('[e2e] SKIPPED because NPU_E2E=skip: the extension was NOT tested in a real VS Code\n');
  process.exit(0);
}

function fail(msg) {
  process.stderr.write(`[e2e] FAILED: ${msg}\n`);
  process.exit(1);
}

const t0 = Date.now();
let tools;
try {
  tools = ensureVSCode();
} catch (err) {
  fail(`could not set up code-server/Chromium: ${err instanceof Error ? err.message : String(err)}`);
}
if (!tools.chromium) fail('no Chromium found after set-up');
let vsix, suite;
try {
  vsix = packageVsix();
  suite = await buildSuite();
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
const { base, workspace } = prepareWorkspace();
const config = {
  root: ROOT, codeServer: tools.codeServer, chromium: tools.chromium, vsix, suite, runnerExtension: RUNNER_EXTENSION, base, workspace,
  updateScreenshot: process.argv.includes('--update-screenshot'), keep: process.argv.includes('--keep'),
};
process.stdout.write(`[e2e] prepared in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
// The whole in-VS Code run has a hard limit well inside CI's budget; the harness has finer ones.
const LIMIT_MS = 9 * 60_000;
const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test/e2e/harness/main.ts')],
  { cwd: ROOT, stdio: 'inherit', timeout: LIMIT_MS, killSignal: 'SIGTERM', env: { ...process.env, NPU_E2E_CONFIG: JSON.stringify(config) } });
if (r.error?.code === 'ETIMEDOUT') process.stderr.write(`[e2e] FAILED: the end-to-end run took longer than ${LIMIT_MS / 60_000} min and was stopped\n`);
// `npm start` as a newcomer runs it, minus the browser: code-server must serve the examples.
const s = spawnSync(process.execPath, [join(ROOT, 'scripts/start.mjs'), '--smoke', '--vsix', vsix], { cwd: ROOT, stdio: 'inherit', timeout: 120_000 });
if (s.status !== 0) process.stderr.write('[e2e] FAILED: `npm start` (scripts/start.mjs --smoke) did not serve the workbench\n');
process.exit(r.status === 0 && s.status === 0 ? 0 : 1);
