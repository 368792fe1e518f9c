/**
 * The Summary against a pinned baseline, end to end in a real VS Code workbench as a user drives
 * it: two generated NPU traces in the workspace (test/gen/genTrace.ts, the pair of
 * test/unit/diff/trace.test.ts: 600 commands each, the MLP phase 1.5× slower in the second) →
 * "NPU Trace: Pin as Baseline" on the first from the palette → "NPU Trace: Show Summary" on the
 * second → its Summary's "vs baseline" section lists phase MLP first, reported; the toolbar names
 * the baseline. The baseline deleted, the next opening of the Summary says so in the Summary; the
 * toolbar's button pins the file shown, then unpins it. (That the pin outlives a reload, being in the
 * workspace's state, is test/unit/client/baseline.test.ts's: VS Code does not always restore a panel
 * opened just before a reload, which made that step flaky here.)
 *
 * One of the UI journeys of test/e2e/harness/ui.ts. Every wait is for a state, never a delay.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { writeRunPair } from './compare';
import { quickOpen, STEP_MS } from './keys';
import { palette, timelineFrame } from './timeline';

/** The cells of the first row of the Summary's comparison with the baseline, once it is drawn. */
async function firstBaselineRow(frame: Frame): Promise<string[]> {
  const row = frame.locator('#summaryView .sum-baseline section[data-table="baseline"] tbody tr').first();
  await row.waitFor({ timeout: STEP_MS });
  return row.locator('td').allTextContents();
}

/** The toolbar's label of the pinned baseline, once it reads `text`. */
async function labelSays(frame: Frame, text: string): Promise<void> {
  await frame.waitForFunction((t) => document.getElementById('baselineLabel')?.textContent === t, text, { timeout: STEP_MS })
    .catch(async () => {
      throw new Error(`the toolbar's baseline label reads ${JSON.stringify(await frame.locator('#baselineLabel').textContent().catch(() => null))}, not ${JSON.stringify(text)}`);
    });
}

export const baselineJourneys = [
  {
    name: 'Pin as Baseline: pin one run, open another run\'s Summary → its deltas against the baseline, the slower phase first; a deleted baseline is said in the Summary; the toolbar pins and unpins',
    async run(page: Page, ctx: { workspace: string; say: (msg: string) => void; shoot: (page: Page, name: string) => Promise<string> }) {
      writeRunPair(ctx.workspace);
      // 20 MB each: VS Code shows "too large" instead of the text; the commands take the tab's file.
      await quickOpen(page, 'base.trace.jsonl');
      await palette(page, 'NPU Trace: Pin as Baseline');
      await page.locator('.statusbar', { hasText: 'is the baseline of NPU trace files' }).first().waitFor({ timeout: STEP_MS })
        .catch(() => { throw new Error('the status bar never said the baseline was pinned'); });
      ctx.say('Pin as Baseline on base.trace.jsonl');

      await quickOpen(page, 'slower.trace.jsonl');
      await palette(page, 'NPU Trace: Show Summary');
      const frame = await timelineFrame(page);
      await labelSays(frame, 'baseline: base.trace.jsonl');
      const cells = await firstBaselineRow(frame);
      if (cells[0] !== 'MLP' || cells[1] !== 'phase' || cells[6] !== 'yes (reported)') throw new Error(`the Summary's first row against the baseline is ${JSON.stringify(cells)}`);
      const reportedPhases = await frame.locator('#summaryView section[data-table="baseline"] tbody tr', { hasText: 'yes (reported)' })
        .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((c) => c.textContent)).filter((c) => c[1] === 'phase').map((c) => c[0]));
      if (reportedPhases.join() !== 'MLP') throw new Error(`reported phases: ${reportedPhases.join(', ')}`);
      const headline = await frame.locator('#summaryView .sum-baseline > summary').textContent();
      ctx.say(`Summary of slower.trace.jsonl: ${headline}; first row ${cells.slice(0, 2).join(' ')}: baseline ${cells[2]} → ${cells[3]}, Δ ${cells[4]} (${cells[5]}), p ${cells[8]}`);
      await ctx.shoot(page, 'baseline-summary');

      // The baseline deleted: the next opening of the Summary says so there (no error popup).
      rmSync(join(ctx.workspace, 'base.trace.jsonl'));
      const tab = frame.locator('#summaryTab');
      if ((await tab.getAttribute('aria-pressed')) === 'true') await tab.click();
      await frame.waitForFunction(() => document.getElementById('summaryView')?.hidden === true, undefined, { timeout: STEP_MS });
      await tab.click();
      await frame.locator('#summaryView .sum-baseline .error', { hasText: 'no longer exists' }).waitFor({ timeout: STEP_MS })
        .catch(async () => { throw new Error(`the Summary does not say the baseline is gone: ${await frame.locator('#summaryView .sum-baseline').textContent().catch(() => '(no section)')}`); });
      ctx.say(`baseline deleted → ${await frame.locator('#summaryView .sum-baseline .error').textContent()}`);
      await ctx.shoot(page, 'baseline-gone');

      // The toolbar pins the file shown in its place, then unpins it.
      await frame.locator('#pinBaseline').click();
      await labelSays(frame, 'the pinned baseline');
      await frame.locator('#summaryView .sum-baseline', { hasText: 'This file is the pinned baseline' }).waitFor({ timeout: STEP_MS });
      await frame.locator('#pinBaseline', { hasText: 'Unpin baseline' }).click();
      await labelSays(frame, '');
      await frame.locator('#summaryView .sum-baseline').waitFor({ state: 'detached', timeout: STEP_MS });
      ctx.say('the toolbar pinned slower.trace.jsonl in its place, then unpinned it: no baseline section');
    },
  },
];
