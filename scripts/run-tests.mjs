// Runs the test suites with Node's test runner. `unit` = core, CLI, fuzz and LSP suites;
// `all` adds the end-to-end suites that need a real VS Code (scripts/e2e.mjs, then scripts/e2e-web.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function find(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === 'fixtures' ? [] : find(p);
    return n.endsWith('.test.ts') ? [p] : [];
  });
}

const which = process.argv[2] ?? 'all';
// The CLI, LSP, hostile and webview suites run the bundles in dist/: build them from the sources
// first (a fresh checkout has none, an edited one old ones), unless `npm test` has just built them
// (its script builds before it calls `run-tests.mjs all`).
if (process.env.npm_lifecycle_event !== 'test') {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// Setup before the suites, not inside a test: the webview tests need Chromium (installed once when missing).
const setup = spawnSync(process.execPath, ['scripts/ensure-chromium.mjs'], { stdio: 'inherit' });
if (setup.status !== 0) process.exit(setup.status ?? 1);
const files = ['test/unit', 'test/cli', 'test/fuzz', 'test/lsp', 'test/hostile'].flatMap(find).sort();
// The suites' temporary files (pages, traces, sockets, Chromium's profiles) go to one folder of
// this run, removed after it: a test that forgets its own leaves nothing behind on the machine.
const tmp = mkdtempSync(join(tmpdir(), 'npu-tests-'));
const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', './test/fc-setup.mjs', '--test', '--test-reporter', 'spec', ...files], {
  stdio: 'inherit', env: { ...process.env, TMPDIR: tmp },
});
rmSync(tmp, { recursive: true, force: true });
if (r.status !== 0) process.exit(r.status ?? 1);
if (which === 'all' && existsSync('scripts/e2e.mjs')) {
  const e = spawnSync(process.execPath, ['scripts/e2e.mjs'], { stdio: 'inherit' });
  if (e.status !== 0) process.exit(e.status ?? 1);
  // The browser build in VS Code's web extension host (issue #19).
  const w = spawnSync(process.execPath, ['scripts/e2e-web.mjs'], { stdio: 'inherit' });
  process.exit(w.status ?? 1);
}
