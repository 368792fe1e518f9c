// The end-to-end run under code-server (started by scripts/e2e.mjs, which installs code-server,
// packages the .vsix and bundles the suite first, then passes the paths in NPU_E2E_CONFIG).
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { installExtension, makeProfile, startCodeServer, type RunningServer } from './codeServer';
import { harness, runToExit, type BaseConfig } from './entry';
import { uiJourneys } from './ui';
import { launchChromium, newPage, openWorkbench, workbenchUrl } from './workbench';

interface Config extends BaseConfig {
  vsix: string;
  suite: string;
  runnerExtension: string;
}

const SUITE_TIMEOUT_MS = 6 * 60_000;
const { cfg, results, consoleLog, say, shoot } = harness<Config>('e2e', 'scripts/e2e.mjs');
for (const f of readdirSync(results)) if (f.startsWith('failure-')) rmSync(join(results, f), { force: true });

/**
 * Runs the mocha suite inside VS Code's extension host: the workbench URL's payload names the test
 * module (extensionTestsPath) and, as VS Code requires one for tests, an extensionDevelopmentPath:
 * an empty runner extension, so that the extension under test is the one installed from the .vsix.
 */
async function extensionHostSuite(browser: Browser, server: RunningServer): Promise<{ ok: boolean; counts?: string }> {
  const remote = (p: string) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  let counts: string | undefined;
  const shots: Promise<string>[] = [];
  const page: Page = await newPage(browser, consoleLog, (line) => {
    const m = /^E2E-RESULT (.*)$/.exec(line.trim());
    if (m) counts = m[1];
    else process.stdout.write(`  ${line}\n`);
    // Shoot while the failed test's editor is still on screen.
    if (line.trim().startsWith('✖')) shots.push(shoot(page, `failure-${line.trim().slice(2, 80).replace(/[^\w-]+/g, '_')}`));
  });
  const exitCode = new Promise<number>((resolve) => {
    void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
  });
  const url = workbenchUrl(server.url, cfg.workspace, [
    ['extensionDevelopmentPath', remote(cfg.runnerExtension)],
    ['extensionTestsPath', remote(cfg.suite)],
    ['skipWelcome', 'true'],
  ]);
  let timer: NodeJS.Timeout | undefined;
  try {
    await openWorkbench(page, url);
    say('workbench loaded; extension-host suite running');
    const code = await Promise.race([exitCode, new Promise<number>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the extension-host suite did not finish within ${SUITE_TIMEOUT_MS / 60_000} min`)), SUITE_TIMEOUT_MS);
    })]);
    if (code !== 0) say(`extension-host suite failed (exit code ${code}); screenshot: ${await shoot(page, 'failure-extension-host')}`);
    return { ok: code === 0, counts };
  } catch (err) {
    say(`${err instanceof Error ? err.message : String(err)}; screenshot: ${await shoot(page, 'failure-extension-host')}`);
    return { ok: false, counts };
  } finally {
    clearTimeout(timer);
    for (const p of await Promise.all(shots)) say(`screenshot of a failed test: ${p}`);
    await page.context().close();
  }
}

async function main(): Promise<number> {
  const c = cfg;
  const t0 = Date.now();
  const profile = makeProfile(c.base);
  say(installExtension(c.codeServer, c.vsix, profile).split('\n').filter((l) => /install/i.test(l)).join(' '));
  const server = await startCodeServer(c.codeServer, profile, c.workspace);
  say(`code-server listening at ${server.url}`);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium(c.chromium);
    const host = await extensionHostSuite(browser, server);
    say(`extension-host suite: ${host.ok ? 'passed' : 'FAILED'} ${host.counts ?? '(no result line: the suite did not run to the end)'}`);
    const ui = await uiJourneys(browser, server, { root: c.root, base: c.base, workspace: c.workspace, results, consoleLog, say, shoot });
    if (c.updateScreenshot && ui.ok) {
      // Every README image comes from this run on the committed examples, in the real VS Code.
      const images: [string, string][] = [['editor.png', 'editor.png'], ['hover.png', 'hover.png'], ['timeline-e2e.png', 'timeline.png'], ['summary.png', 'summary.png'],
        ['inferscope-timeline.png', 'inferscope-timeline.png'], ['chrome-timeline.png', 'chrome-timeline.png'], ['kprof-editor.png', 'kprof-editor.png'],
        ['cmdq-graph-e2e.png', 'cmdq-graph.png']];
      images.push(['check-all.png', 'check-all.png'], ['status-bar.png', 'status-bar.png']);
      images.push(['cmdq-join-show-in-cmdq.png', 'cmdq-join.png'], ['inferscope-finding-timeline.png', 'inferscope-finding.png'], ['inferscope-report.png', 'inferscope-report.png'], ['chrome-one-line-flow.png', 'chrome-one-line-flow.png']);
      for (const [from, to] of images) copyFileSync(join(results, from), join(c.root, 'images', to));
      say(`${images.map(([, to]) => `images/${to}`).join(', ')} updated from this run`);
      // The walkthrough's own media ship in the .vsix, from its journey on the shipped examples.
      const steps = ['open-example', 'diagnostic', 'timeline', 'summary', 'cmdq', 'pytorch', 'kprof'];
      for (const s of steps) copyFileSync(join(results, `walkthrough-${s}.png`), join(c.root, 'walkthrough', `${s}.png`));
      say(`walkthrough/{${steps.join(',')}}.png updated from this run`);
    }
    say(`UI journeys: ${ui.passed} passed, ${ui.failed} failed`);
    say(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s; console log of the workbench: ${consoleLog}`);
    const ran = host.counts !== undefined && (JSON.parse(host.counts) as { passes: number }).passes > 0;
    if (!ran) say('FAILED: no extension-host test passed (did NPU_E2E_GREP match nothing?)');
    return host.ok && ui.ok && ran ? 0 : 1;
  } finally {
    await browser?.close().catch(() => undefined);
    await server.stop();
    if (!c.keep) rmSync(c.base, { recursive: true, force: true });
  }
}

runToExit(main, say);
