// The browser build's journey (started by scripts/e2e-web.mjs): a web-only copy of the extension
// (extensionKind ["web"], no "main") loaded as the development extension in code-server, so VS Code
// runs dist/web/extension.js in its web worker extension host; a user opens the faulty example,
// sees its problems, and opens the timeline.
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { faultyExample } from '../../gen/exampleTraces';
import { makeProfile, startCodeServer } from './codeServer';
import { harness, runToExit, type BaseConfig } from './entry';
import { problemsInStatusBar, quickOpen, STEP_MS } from './keys';
import { palette, timelineFrame } from './timeline';
import { launchChromium, newPage, openWorkbench, workbenchUrl } from './workbench';

interface Config extends BaseConfig {
  /** The web-only copy of the extension (a directory). */
  extension: string;
}

const { cfg, consoleLog, say, shoot } = harness<Config>('e2e-web', 'scripts/e2e-web.mjs');

async function journey(page: Page): Promise<string> {
  const { mistakes } = faultyExample();
  const warnings = mistakes.filter((m) => m.severity === 'warning').length;
  await quickOpen(page, 'faulty.trace.jsonl');
  await page.locator('[id="status.editor.mode"]', { hasText: 'NPU Trace' }).waitFor({ timeout: STEP_MS });
  await problemsInStatusBar(page, mistakes.length - warnings, warnings);
  say(`faulty.trace.jsonl: ${mistakes.length - warnings} errors, ${warnings} warnings from the language server`);
  // The browser client says where its server runs (client/browser/extension.ts).
  const console = readFileSync(consoleLog, 'utf8');
  const where = /language server: (worker|in-process)/.exec(console);
  const why = /\[npu-trace\] (the language server worker [^\n]*?: it runs in-process)/.exec(console);
  if (why) say(why[1]);
  say(`the language server runs ${where ? `in ${where[1] === 'worker' ? 'a web worker' : 'the web extension host (in-process)'}` : 'where the console did not say'}`);
  await palette(page, 'NPU Trace: Show Timeline');
  const frame = await timelineFrame(page);
  await frame.waitForFunction(() => ((window as unknown as { __timeline?: { perf: { firstPaint: number } } }).__timeline?.perf.firstPaint ?? 0) > 0, undefined, { timeout: STEP_MS });
  const items = await frame.evaluate(() => (window as unknown as { __timeline: { state(): { model: { items: { start: ArrayLike<number> } } } | undefined } }).__timeline.state()?.model.items.start.length ?? 0);
  if (items < 10) throw new Error(`the timeline drew ${items} items`);
  say(`timeline painted: ${items} items`);
  const shot = await shoot(page, 'web-timeline');
  // The commands that need Node are hidden in the browser: the palette does not offer them.
  await page.keyboard.press('Control+Shift+P');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: STEP_MS });
  await page.keyboard.type('Check All Trace Files');
  // The list is filtered once the typed text shows; then it either offers the command or not.
  await page.locator('.quick-input-widget .monaco-list-row').first().waitFor({ timeout: STEP_MS });
  const offered = await page.locator('.quick-input-widget .monaco-list-row').allTextContents();
  if (offered.some((t) => t.includes('Check All Trace Files'))) throw new Error(`Check All is offered in the browser: ${offered.join(' | ')}`);
  await page.keyboard.press('Escape');
  say('Check All (needs the file system) is not offered');
  // A custom request of the server: NNAPI: Show Timing Summary opens its table beside the systrace.
  await quickOpen(page, 'nnapi-mobilenet.systrace');
  await page.locator('[id="status.editor.mode"]', { hasText: 'NNAPI Systrace' }).waitFor({ timeout: STEP_MS });
  await palette(page, 'NNAPI: Show Timing Summary');
  await page.locator('.tabs-container .tab.active', { hasText: 'timing summary' }).waitFor({ timeout: STEP_MS });
  say('NNAPI: Show Timing Summary opened its table from the server');
  return shot;
}

async function main(): Promise<number> {
  const c = cfg;
  const profile = makeProfile(c.base);
  const server = await startCodeServer(c.codeServer, profile, c.workspace);
  const browser = await launchChromium(c.chromium);
  try {
    const page = await newPage(browser, consoleLog);
    const remote = (p: string) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    await openWorkbench(page, workbenchUrl(server.url, c.workspace, [['extensionDevelopmentPath', remote(c.extension)], ['skipWelcome', 'true']]));
    say('workbench loaded');
    let shot: string;
    try {
      shot = await journey(page);
    } catch (err) {
      say(`FAILED: ${err instanceof Error ? err.message : String(err)}; screenshot: ${await shoot(page, 'failure-web')}`);
      return 1;
    }
    say(`screenshot of the timeline: ${shot}`);
    if (c.updateScreenshot) {
      copyFileSync(shot, join(c.root, 'images', 'web-timeline.png'));
      say('images/web-timeline.png updated from this run');
    }
    return 0;
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
    if (!c.keep) rmSync(c.base, { recursive: true, force: true });
  }
}

runToExit(main, say);
