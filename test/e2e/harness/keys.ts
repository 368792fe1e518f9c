// Keyboard steps shared by the UI journeys (test/e2e/harness/ui.ts, formats.ts): each waits for the
// state it causes, never a fixed delay, and fails with what it saw.
import type { Locator, Page } from 'playwright-core';

export const STEP_MS = 60_000;

/** The file name `name` exactly, as a row's or a tab's label shows it (not a name that contains it). */
function exactly(name: string): RegExp {
  return new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/**
 * Quick Open (Ctrl+P) a file of the workspace by name, as a user would: the row of exactly that
 * name is picked, not the first one (`trace.json` also matches `faulty.trace.jsonl`, which Quick
 * Open may rank first once it was opened), and the active tab must be that file.
 */
export async function quickOpen(page: Page, name: string): Promise<void> {
  const row = page.locator('.quick-input-widget .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exactly(name) }) }).first();
  const tab = page.locator('.tabs-container .tab.active').filter({ has: page.locator('.label-name', { hasText: exactly(name) }) });
  for (let attempt = 1; ; attempt++) {
    // A file written after the workspace's files were listed may be missing from the list for a
    // while: Quick Open is closed and opened again (which lists them anew) until it shows the file.
    for (let round = 1; ; round++) {
      await pressUntil(page, 'Control+P', page.locator('.quick-input-widget input'), 'visible', `Quick Open for ${name}`);
      await page.keyboard.type(name);
      const listed = await row.waitFor({ timeout: round < 3 ? 10_000 : STEP_MS }).then(() => true, () => false);
      if (listed) break;
      if (round === 3) throw new Error(`Quick Open never listed ${name}`);
      await closeQuickOpen(page);
    }
    await row.click();
    if (await tab.waitFor({ timeout: attempt < 3 ? 10_000 : STEP_MS }).then(() => true, () => false)) return;
    if (attempt === 3) throw new Error(`Quick Open: ${name} was picked three times and never opened`);
    // A page that took the focus closed the list as the click came, and the click fell on what lay
    // under it (a kernel-profiler page's filter menu, opened, in a CI run of 2026-11-29). Escape closes that.
    await closeQuickOpen(page);
  }
}

/** Escape, until Quick Open is gone (it closes what a stray click opened too). */
async function closeQuickOpen(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: STEP_MS });
}

/**
 * `key` pressed until `target` is in `state` (a panel shown, a tab closed). A key pressed while a
 * webview has the focus reaches the workbench only through the page's forwarding of the keystroke,
 * which lost one on a loaded CI machine (stop 40): pressed again if nothing came of it, three times.
 */
export async function pressUntil(page: Page, key: string, target: Locator, state: 'visible' | 'detached', what: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press(key);
    const done = await target.first().waitFor({ state, timeout: attempt < 3 ? 5_000 : STEP_MS }).then(() => true, () => false);
    if (done) return;
    if (attempt === 3) throw new Error(`${what}: nothing came of ${key}, pressed three times`);
  }
}

/**
 * Ctrl+K Ctrl+I, the keyboard's hover at the cursor, and the visible hover holding `hasText`. A
 * chord pressed while the editor takes the focus back from the find widget can be lost (seen in a
 * loaded CI run): pressed again if no hover came, up to three times.
 */
export async function hoverAtCursor(page: Page, hasText?: string): Promise<Locator> {
  const hover = page.locator('.monaco-hover:visible', hasText === undefined ? {} : { hasText });
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    const shown = await hover.first().waitFor({ timeout: attempt < 3 ? 5_000 : STEP_MS }).then(() => true, () => false);
    if (shown) return hover;
    if (attempt === 3) {
      const other = await page.locator('.monaco-hover:visible').first().textContent({ timeout: 1000 }).catch(() => 'none');
      throw new Error(`no hover${hasText === undefined ? '' : ` holding "${hasText}"`} at the cursor after Ctrl+K Ctrl+I (three times); visible hover: "${other}"`);
    }
    // Closes a half-open hover or chord before the next try.
    await page.keyboard.press('Escape');
  }
}

/** Ctrl+G to a 1-based line (and column). */
export async function goToLine(page: Page, line: number, column?: number): Promise<void> {
  await pressUntil(page, 'Control+G', page.locator('.quick-input-widget input'), 'visible', 'Go to Line/Column');
  await page.keyboard.type(column === undefined ? String(line) : `${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: STEP_MS });
}

/** Ctrl+F for `text` (Alt+R first when it is a regex), Enter to select the first match, Escape. */
export async function findInEditor(page: Page, text: string, regex = false): Promise<void> {
  await page.keyboard.press('Control+F');
  await page.locator('.find-widget textarea, .find-widget input').first().waitFor({ state: 'visible', timeout: STEP_MS });
  if (regex) await page.keyboard.press('Alt+R');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  // The editor has the focus back once the widget is gone; keys pressed before that can be lost.
  await page.locator('.find-widget.visible').waitFor({ state: 'hidden', timeout: STEP_MS });
}

/**
 * Ctrl+. at the cursor and the quick-fix menu entry holding `text`. Like the hover chord, Ctrl+.
 * can be lost while the focus moves back from the find widget on a loaded machine (seen in CI):
 * pressed again, after Escape, if no menu came, up to three times.
 */
export async function quickFixAtCursor(page: Page, text: string): Promise<void> {
  const entry = page.getByText(text).first();
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+.');
    const shown = await entry.waitFor({ timeout: attempt < 3 ? 10_000 : STEP_MS }).then(() => true, () => false);
    if (shown) return;
    if (attempt === 3) {
      const menu = await page.locator('.action-widget:visible, .context-view:visible').first().textContent({ timeout: 1000 }).catch(() => 'none');
      throw new Error(`no quick fix "${text}" at the cursor after Ctrl+. (three times); visible menu: "${menu}"`);
    }
    await page.keyboard.press('Escape');
  }
}

/** Waits until the status bar's problems item reads `errors` errors and `warnings` warnings. */
export async function problemsInStatusBar(page: Page, errors: number, warnings: number): Promise<void> {
  const item = page.locator('[id="status.problems"]');
  try {
    // The item reads "<error icon> E <warning icon> W" (plus an info count when there are infos).
    await page.waitForFunction(([e, w]) => {
      const nums = (document.getElementById('status.problems')?.textContent ?? '').match(/\d+/g)?.map(Number) ?? [];
      return nums[0] === e && nums[1] === w;
    }, [errors, warnings], { timeout: STEP_MS });
  } catch {
    throw new Error(`status bar problems never read ${errors} errors, ${warnings} warnings; it reads "${await item.textContent()}"`);
  }
}

/** Waits until the visible hover holding `text` is opaque (any fade-in over), for a clean screenshot. */
export async function fullyDrawn(page: Page, text: string): Promise<void> {
  // Runs in the page: with `detail` it reports, without it answers whether the hover is fully drawn.
  const probe = ({ t, detail }: { t: string; detail: boolean }) => {
    const el = Array.from(document.querySelectorAll<HTMLElement>('.monaco-hover')).find((e) => e.offsetParent && e.textContent?.includes(t));
    let opacity = 1;
    for (let n: HTMLElement | null = el ?? null; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
    const animations = el?.getAnimations({ subtree: true }).length ?? 0;
    return detail ? JSON.stringify({ found: !!el, opacity, animations }) : !!el && opacity === 1 && animations === 0;
  };
  try {
    await page.waitForFunction(probe, { t: text, detail: false }, { timeout: 10_000 });
  } catch {
    throw new Error(`the hover never became fully opaque: ${String(await page.evaluate(probe, { t: text, detail: true }))}`);
  }
}
