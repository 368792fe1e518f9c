import { appendFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export async function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-default-apps'],
  });
}

/** URL of the workbench on `folder`, with the given `payload` entries (see real-vscode-testing.md). */
export function workbenchUrl(base: string, folder: string, payload: [string, string][]): string {
  return `${base}?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** Opens a page whose console goes to `logFile`; the end-to-end suite's lines are also handed to `onHostLine`. */
export async function newPage(browser: Browser, logFile: string, onHostLine?: (line: string) => void): Promise<Page> {
  // Reduced motion: no fade-in of hovers and widgets, so screenshots show them fully drawn.
  // Clipboard access: the Summary journey reads back what Copy as CSV put there.
  const context = await browser.newContext({ viewport: { width: 1400, height: 860 }, deviceScaleFactor: 1, reducedMotion: 'reduce', permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  page.on('console', (msg) => {
    const text = msg.text();
    appendFileSync(logFile, `[${msg.type()}] ${text}\n`);
    // The suite prefixes its lines (test/e2e/suite/index.ts); the workbench adds its own log prefix.
    const at = text.indexOf('[npu-e2e] ');
    if (onHostLine && at >= 0) onHostLine(text.slice(at + '[npu-e2e] '.length));
  });
  page.on('pageerror', (err) => appendFileSync(logFile, `[pageerror] ${err.message}\n`));
  return page;
}

/** Loads the workbench and waits until it is there, failing with a clear message after `timeoutMs`. */
export async function openWorkbench(page: Page, url: string, timeoutMs = 120_000): Promise<void> {
  await page.goto(url, { timeout: timeoutMs, waitUntil: 'domcontentloaded' });
  try {
    await page.locator('.monaco-workbench').waitFor({ state: 'attached', timeout: timeoutMs });
  } catch {
    throw new Error(`the VS Code workbench did not appear within ${timeoutMs / 1000} s at ${url}`);
  }
}
