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
import { packageVsix, ROOT } from './package-vsix.mjs';
import { buildSuite, codeServerTools, failer, prepareWorkspace, runHarness, RUNNER_EXTENSION } from './e2e-build.mjs';

// An explicit, loud opt-out for machines without apt (e.g. macOS: use `npm run test:e2e:electron`).
// CI never sets it: there a failing end-to-end run fails `npm test`.
if (process.env.NPU_E2E === 'skip') {
  process.stderr.write('[e2e] SKIPPED because NPU_E2E=skip: the extension was NOT tested in a real VS Code\n');
  process.exit(0);
}

const fail = failer('e2e');
const t0 = Date.now();
const tools = codeServerTools(fail);
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
// 30 journeys take about 5 min on a quiet machine and three times that at a load of 15; each step
// has its own minute (STEP_MS), so this limit only stops a run that hangs as a whole.
const passed = runHarness('e2e', 'test/e2e/harness/main.ts', config, 20 * 60_000);
// `npm start` as a newcomer runs it, minus the browser: code-server must serve the examples.
const s = spawnSync(process.execPath, [join(ROOT, 'scripts/start.mjs'), '--smoke', '--vsix', vsix], { cwd: ROOT, stdio: 'inherit', timeout: 120_000 });
if (s.status !== 0) process.stderr.write('[e2e] FAILED: `npm start` (scripts/start.mjs --smoke) did not serve the workbench\n');
process.exit(passed && s.status === 0 ? 0 : 1);
