/**
 * UI journeys of issue #19's editor part, driven with keyboard and mouse in the real VS Code: the
 * Get Started walkthrough (opened from the palette, each step's button run in turn), "Check All
 * Trace Files in Workspace" on the journey's copy of examples/, and the trace status-bar item.
 * The expected numbers are read from the files here (or from the built CLI), not from the extension.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { CHECK_ALL_NAMES } from '../../../client/checkAllResults';
import { nameMatches } from '../../../core/fileHead';
import { statusBarText } from '../../../client/statusBarText';
import { goToLine, problemsInStatusBar, quickOpen, STEP_MS } from './keys';
import { palette, timelineFrame } from './timeline';
import type { UiContext } from './ui';

interface PageTimeline {
  __timeline?: { perf: { firstPaint: number } };
}

/** The status-bar text the item must show for a trace, from the file's lines and its TRACE_META clock. */
function expectedStatus(text: string, problems: number): string {
  let events = 0, first = Infinity, last = -Infinity, ghz: number | undefined;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof o.t_cycle === 'number') {
      events++;
      first = Math.min(first, o.t_cycle);
      last = Math.max(last, o.t_cycle);
    }
    if (o.event_type === 'TRACE_META' && typeof o.clock_ghz === 'number') ghz = o.clock_ghz;
  }
  const s = statusBarText({ events, first, last, nsPerCycle: ghz ? 1 / ghz : null }, problems, 'x').text;
  // The leading $(icon) is drawn as a codicon, not as text.
  return s.replace(/^\$\([\w~-]+\) /, '');
}

async function statusItem(page: Page, want: string): Promise<void> {
  await page.locator('.statusbar-item', { hasText: want }).first().waitFor({ timeout: STEP_MS })
    .catch(async () => { throw new Error(`the status bar never showed "${want}"; it reads "${await page.locator('.statusbar').textContent()}"`); });
}

/** Clicks a step of the open walkthrough by its title, then the button of that step. */
async function runStep(page: Page, title: string, button: string): Promise<void> {
  const walk = page.locator('.gettingStartedContainer');
  await walk.locator('.getting-started-step', { hasText: title }).first().click();
  await walk.locator('.getting-started-step.expanded', { hasText: title }).locator('.button-link, a, button', { hasText: button }).first().click({ timeout: STEP_MS });
}

/**
 * A screenshot of what a step opened: the workbench right of the walkthrough's editor group (the
 * walkthrough itself would show in its own media otherwise), status bar included.
 */
async function shootBeside(page: Page, ctx: UiContext, name: string): Promise<void> {
  const box = await page.locator('.editor-group-container', { has: page.locator('.gettingStartedContainer') }).first().boundingBox();
  const vp = page.viewportSize()!;
  const x = box ? Math.round(box.x + box.width) : 0;
  await page.screenshot({ path: join(ctx.results, `${name}.png`), clip: { x, y: 0, width: vp.width - x, height: vp.height } });
}

/** The timeline page whose model holds a string `needle` (an item or track name): one of several open. */
async function timelineFrameOf(page: Page, needle: string): Promise<Frame> {
  const deadline = Date.now() + STEP_MS;
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      const has = await f.evaluate((n) => {
        const s = (window as unknown as { __timeline?: { state(): { model: { strings: string[]; tracks: { name: string }[] } } | undefined } }).__timeline?.state();
        return !!s && (s.model.strings.includes(n) || s.model.tracks.some((t) => t.name.includes(n)));
      }, needle).catch(() => false);
      if (has) return f;
    }
    await page.waitForEvent('frameattached', { timeout: 1000 }).catch(() => undefined);
  }
  throw new Error(`no timeline page shows "${needle}"`);
}

async function problemRow(page: Page, code: string): Promise<void> {
  await page.locator('.markers-panel').waitFor({ state: 'visible', timeout: STEP_MS });
  await page.locator('.markers-panel .monaco-list-row', { hasText: code }).first().waitFor({ timeout: STEP_MS })
    .catch(() => { throw new Error(`the Problems panel never listed ${code}`); });
}

export const walkthroughJourneys: { name: string; run: (page: Page, ctx: UiContext) => Promise<void> }[] = [
  {
    name: 'Walkthrough: Welcome: Open Walkthrough… → Get Started with NPU Trace Inspector; its buttons open the example (1 error, status bar numbers), the Problems, the timeline, the summary, the example CMDQ, the PyTorch trace\'s timeline and kernel summary, and the kernel-profiler buffer',
    async run(page, ctx) {
      const example = readFileSync(join(ctx.root, 'walkthrough/example.trace.jsonl'), 'utf8');
      // Room for the walkthrough and what it opens beside it: the side bar closed.
      await page.keyboard.press('Control+B');
      await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: STEP_MS });
      await palette(page, 'Welcome: Open Walkthrough...');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Get Started with NPU Trace Inspector' }).first().waitFor({ timeout: STEP_MS });
      await page.keyboard.type('NPU Trace Inspector');
      await page.keyboard.press('Enter');
      await page.locator('.gettingStartedContainer', { hasText: 'Get Started with NPU Trace Inspector' }).waitFor({ timeout: STEP_MS });
      ctx.say('    walkthrough open');

      await runStep(page, 'Open an example trace', 'Open Example Trace');
      await page.locator('.tabs-container .tab.active', { hasText: 'example.trace.jsonl' }).waitFor({ timeout: STEP_MS });
      await page.locator('[id="status.editor.mode"]', { hasText: 'NPU Trace' }).waitFor({ timeout: STEP_MS });
      await problemsInStatusBar(page, 1, 0);
      const want = expectedStatus(example, 1);
      await statusItem(page, want);
      ctx.say(`    example open: 1 error; status bar "${want}"`);
      await ctx.shoot(page, 'walkthrough-open-example');
      // The walkthrough's tab again, as a user returns to it for the next step.
      await page.locator('.tabs-container .tab', { hasText: 'NPU Trace Inspector' }).first().click();

      await runStep(page, 'See a diagnostic', 'Show Problems');
      await problemRow(page, 'trace.invalid-value');
      ctx.say('    Problems panel: trace.invalid-value');
      await ctx.shoot(page, 'walkthrough-diagnostic');
      await page.keyboard.press('Control+J');

      await runStep(page, 'Show the timeline', 'Show Timeline');
      const frame = await timelineFrame(page);
      await frame.waitForFunction(() => ((window as unknown as PageTimeline).__timeline?.perf.firstPaint ?? 0) > 0, undefined, { timeout: STEP_MS });
      ctx.say('    timeline painted');
      await shootBeside(page, ctx, 'walkthrough-timeline');

      await page.locator('.tabs-container .tab', { hasText: 'NPU Trace Inspector' }).first().click();
      await runStep(page, 'Open the summary', 'Show Summary');
      const summary = await timelineFrame(page);
      await summary.locator('#summaryView section[data-table="phases"] tbody tr').first().waitFor({ timeout: STEP_MS });
      ctx.say('    summary shown');
      await shootBeside(page, ctx, 'walkthrough-summary');

      await page.locator('.tabs-container .tab', { hasText: 'NPU Trace Inspector' }).first().click();
      await runStep(page, 'Check a command queue', 'Open Example CMDQ');
      await page.locator('.tabs-container .tab.active', { hasText: 'example.cmdq.json' }).waitFor({ timeout: STEP_MS });
      await page.locator('[id="status.editor.mode"]', { hasText: 'CMDQ' }).waitFor({ timeout: STEP_MS });
      // The example trace is still open: its error and the queue's.
      await problemsInStatusBar(page, 2, 0);
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: STEP_MS });
      // The mistake sits far right on its line: word wrap (Alt+Z) brings it into view.
      await page.locator('.monaco-editor .view-lines').first().click();
      await page.keyboard.press('Alt+Z');
      await page.keyboard.press('Control+Home');
      await page.waitForFunction(() => document.querySelectorAll('.monaco-editor .view-lines .view-line').length > 12, undefined, { timeout: STEP_MS });
      await shootBeside(page, ctx, 'walkthrough-cmdq');
      await page.keyboard.press('Control+Shift+M');
      await problemRow(page, 'cmdq.self-dep');
      ctx.say('    example CMDQ: cmdq.self-dep');
      await page.keyboard.press('Control+J');

      await page.locator('.tabs-container .tab', { hasText: 'NPU Trace Inspector' }).first().click();
      await runStep(page, 'Read a PyTorch profiler trace', 'Show PyTorch Timeline');
      await page.locator('.tabs-container .tab', { hasText: 'Timeline: example.pt.trace.json' }).first().waitFor({ timeout: STEP_MS });
      const pt = await timelineFrameOf(page, 'ProfilerStep#2');
      // Select the first step, as its button's text says to: the flows of its launches are drawn.
      await pt.evaluate(() => {
        const tl = (window as unknown as { __timeline: { state(): { selected: number; model: { strings: string[]; items: { name: Uint32Array } } }; redraw(): void } }).__timeline;
        const s = tl.state();
        s.selected = s.model.items.name.indexOf(s.model.strings.indexOf('ProfilerStep#2'));
        tl.redraw();
      });
      await pt.waitForFunction(() => ((window as unknown as { __timeline: { state(): { arrowsDrawn: number } } }).__timeline.state().arrowsDrawn) > 1, undefined, { timeout: STEP_MS });
      ctx.say('    PyTorch example: timeline with the step\'s flows');
      await shootBeside(page, ctx, 'walkthrough-pytorch');
      await page.locator('.tabs-container .tab', { hasText: 'NPU Trace Inspector' }).first().click();
      await runStep(page, 'Read a PyTorch profiler trace', 'Show Kernel Summary');
      await pt.locator('#summaryView section[data-table="kernels"] tbody tr').first().waitFor({ timeout: STEP_MS });
      ctx.say('    PyTorch example: kernel summary');

      await page.locator('.tabs-container .tab', { hasText: 'NPU Trace Inspector' }).first().click();
      await runStep(page, 'Open a kernel-profiler buffer', 'Open Example Buffer');
      await page.locator('.tabs-container .tab.active', { hasText: 'example.kprof.npy' }).waitFor({ timeout: STEP_MS });
      const kp = await timelineFrameOf(page, 'mma-qk');
      await kp.waitForFunction(() => ((window as unknown as PageTimeline).__timeline?.perf.firstPaint ?? 0) > 0, undefined, { timeout: STEP_MS });
      ctx.say('    kernel-profiler example: its editor, its groups named');
      await shootBeside(page, ctx, 'walkthrough-kprof');
    },
  },
  {
    name: 'Check All: NPU Trace: Check All Trace Files in Workspace → the summary notification and the Problems panel count what npu-trace check finds',
    async run(page, ctx) {
      // What the built CLI finds in the same files: the counts the command must report.
      const files = readdirSync(ctx.workspace).filter((f) => CHECK_ALL_NAMES.some((g) => nameMatches(g, f))).sort();
      const r = spawnSync(process.execPath, [join(ctx.root, 'dist/cli.js'), 'check', '--format', 'json', ...files], { cwd: ctx.workspace, encoding: 'utf8' });
      const results = JSON.parse(r.stdout) as { file: string; diagnostics: { severity: string; code: string }[] }[];
      const all = results.flatMap((x) => x.diagnostics);
      const errors = all.filter((d) => d.severity === 'error').length;
      const warnings = all.filter((d) => d.severity === 'warning').length;
      const n = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`;
      const want = `Checked ${n(results.length, 'file')}: ${n(errors, 'error')}, ${n(warnings, 'warning')}.`;
      if (results.length < 5 || errors === 0) throw new Error(`the examples should hold several files with problems; the CLI found ${r.stdout.slice(0, 300)}`);

      // Nothing is open yet: right after the workbench loads, the palette may not list the
      // extension's commands (seen once); Escape and ask again until it does, within the step.
      const command = 'NPU Trace: Check All Trace Files in Workspace';
      for (const deadline = Date.now() + STEP_MS; ;) {
        await page.keyboard.press('Control+Shift+P');
        await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: STEP_MS });
        await page.keyboard.type(command);
        const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Check All Trace Files in Workspace' }).first();
        if (await row.waitFor({ timeout: 5000 }).then(() => true, () => false)) break;
        if (Date.now() > deadline) throw new Error(`the palette never listed "${command}"`);
        await page.keyboard.press('Escape');
      }
      await page.keyboard.press('Enter');
      await page.locator('.notifications-toasts .notification-toast', { hasText: want }).first().waitFor({ timeout: STEP_MS })
        .catch(async () => { throw new Error(`no notification "${want}"; toasts read "${await page.locator('.notifications-toasts').textContent()}"`); });
      ctx.say(`    notification: ${want}`);
      await page.keyboard.press('Control+Shift+M');
      await page.waitForFunction((k) => document.querySelector('.part.panel .badge-content')?.textContent?.trim() === String(k), all.length, { timeout: STEP_MS })
        .catch(async () => { throw new Error(`the Problems badge never read ${all.length}; it reads "${await page.locator('.part.panel .badge-content').first().textContent().catch(() => '?')}"`); });
      // Collapsed, the list has one row per file (the rows are virtualised): each with its count.
      await page.locator('.part.panel .action-label[aria-label="Collapse All"]').first().click({ timeout: STEP_MS });
      for (const f of results.filter((x) => x.diagnostics.length)) {
        const row = page.locator('.markers-panel .monaco-list-row', { hasText: f.file }).first();
        await row.locator('.monaco-count-badge', { hasText: new RegExp(`^${f.diagnostics.length}$`) }).waitFor({ timeout: STEP_MS })
          .catch(async () => { throw new Error(`the Problems panel's row of ${f.file} does not count ${f.diagnostics.length}: "${await row.textContent().catch(() => 'no row')}"`); });
      }
      await problemsInStatusBar(page, errors, warnings);
      ctx.say(`    Problems panel: ${all.length} problems (${errors} errors, ${warnings} warnings), none of the files open`);
      await ctx.shoot(page, 'check-all');
    },
  },
  {
    name: 'status bar: a trace shows its events, span (cycles and µs) and problems; a typed mistake counts; other files hide it',
    async run(page, ctx) {
      const file = 'llm-layer.trace.jsonl';
      const text = readFileSync(join(ctx.workspace, file), 'utf8');
      await quickOpen(page, file);
      const clean = expectedStatus(text, 0);
      await statusItem(page, clean);
      ctx.say(`    status bar: "${clean}"`);
      await ctx.shoot(page, 'status-bar');
      // Break one SRAM_ACCESS line: no longer JSON, it is no longer an event (one fewer), and one error.
      const lines = text.split('\n');
      const target = lines.findIndex((l) => l.includes('"event_type":"SRAM_ACCESS"'));
      await page.locator('.monaco-editor .view-lines').first().click();
      await goToLine(page, target + 1);
      await page.keyboard.press('Home');
      await page.keyboard.type('x');
      await problemsInStatusBar(page, 1, 0);
      lines[target] = `x${lines[target]}`;
      const broken = expectedStatus(lines.join('\n'), 1);
      await statusItem(page, broken);
      ctx.say(`    after typing a mistake: "${broken}"`);
      await page.keyboard.press('Control+Z');
      await statusItem(page, clean);
      // Another kind of file: the item goes away; back on the trace it returns.
      await quickOpen(page, 'golden.cmdq.json');
      await page.locator('.statusbar-item', { hasText: ' events · ' }).waitFor({ state: 'detached', timeout: STEP_MS })
        .catch(() => { throw new Error('the trace status item still shows on a CMDQ file'); });
      await page.locator('.tabs-container .tab', { hasText: file }).first().click();
      await page.locator('.tabs-container .tab.active', { hasText: file }).waitFor({ timeout: STEP_MS });
      await statusItem(page, clean);
      // Clicking it shows the timeline.
      await page.locator('.statusbar-item', { hasText: clean }).first().click();
      const frame = await timelineFrame(page);
      await frame.waitForFunction(() => ((window as unknown as PageTimeline).__timeline?.perf.firstPaint ?? 0) > 0, undefined, { timeout: STEP_MS });
      ctx.say('    hidden on a CMDQ file; clicking it shows the timeline');
    },
  },
];
