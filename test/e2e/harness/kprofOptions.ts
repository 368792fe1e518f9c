/**
 * The kernel-profiler editor's options (issue #30 item 12), end to end in the real VS Code: the
 * layout offered as a command (auto and each writer's preset) and as a setting, and the warning
 * in the Summary tab when most lanes ran out of buffer. The Summary's facts line says which layout
 * read the records, so the test reads the layout from what the page shows, not from the host.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { genKprof, npyBytes, warpSpecProgram } from '../../gen/kprofGen';
import { pageOf, painted } from './formats';
import { pressUntil, quickOpen, STEP_MS } from './keys';
import { palette } from './timeline';
import type { UiContext } from './ui';

/** Opens the Summary tab of a kernel-profiler page (the toolbar's Summary button) unless it is open. */
async function summaryTab(frame: Frame): Promise<void> {
  const button = frame.locator('#summaryTab');
  if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
  await frame.locator('#summaryView .kprof-facts').waitFor({ timeout: STEP_MS });
}

/** Waits until the Summary's facts line names `layout` and `regions` regions; returns the line. */
async function factsRead(frame: Frame, layout: string, regions: number): Promise<string> {
  const facts = frame.locator('#summaryView .kprof-facts');
  const want = new RegExp(`layout\\s*${layout}\\b.*regions\\s*${regions}\\b`);
  await facts.filter({ hasText: want }).waitFor({ timeout: STEP_MS })
    .catch(async () => { throw new Error(`the Summary's facts never matched ${want}; they read "${await facts.textContent().catch(() => '')}"`); });
  return (await facts.textContent()) ?? '';
}

export const kprofOptionJourneys = [
  {
    name: 'Kernel profiler options: Pick Layout… reads the open buffer in another writer\'s layout and back; the layout setting applies to the next buffer; a buffer whose lanes all ran out of slots says so at the top of its Summary',
    async run(page: Page, ctx: UiContext): Promise<void> {
      // 150 slots hold about half of what each of the 12 lanes writes: every lane is full.
      const full = genKprof({ blocks: 2, groups: 6, program: warpSpecProgram, slots: 150 });
      writeFileSync(join(ctx.workspace, 'full.kprof.npy'), npyBytes(full.words));
      copyFileSync(join(ctx.workspace, 'warpspec.kprof.names.txt'), join(ctx.workspace, 'full.kprof.names.txt'));

      // The example buffer, detected as TVM's layout (146 regions); read as Mirage's, its tags pair into 73.
      await quickOpen(page, 'warpspec.kprof.npy');
      const ws = await pageOf(page, 'warpspec.kprof.npy');
      await painted(ws);
      await summaryTab(ws);
      await factsRead(ws, 'tvm', 146);
      if (await ws.locator('#summaryView .kprof-warning').count()) throw new Error('a buffer that lost nothing shows the buffer-full warning');
      await palette(page, 'NPU Trace: Profiler Buffer: Pick Layout…');
      const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'mirage' }).first();
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: /detected from the records/ }).first().waitFor({ timeout: STEP_MS });
      for (const id of ['tvm', 'flashinfer', 'flashinfer-py', 'mirage']) await page.locator('.quick-input-widget .monaco-list-row', { hasText: id }).first().waitFor({ timeout: STEP_MS });
      await row.click();
      ctx.say(`    Pick Layout… → mirage: ${await factsRead(ws, 'mirage', 73)}`);
      await palette(page, 'NPU Trace: Profiler Buffer: Pick Layout…');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: /detected from the records/ }).first().click();
      await factsRead(ws, 'tvm', 146);
      ctx.say('    Pick Layout… → auto: tvm again');

      // The setting: the next buffer opened is read in the layout it names.
      mkdirSync(join(ctx.workspace, '.vscode'), { recursive: true });
      writeFileSync(join(ctx.workspace, '.vscode', 'settings.json'), JSON.stringify({ 'npuTrace.kprof.layout': 'mirage' }));
      // The window picks the file up when its watcher reports it, a moment later: until then a buffer
      // opens in auto. Open, and close and open again until the facts name the setting's layout.
      let fl: Frame | undefined;
      let facts = '';
      const deadline = Date.now() + STEP_MS;
      for (;;) {
        await quickOpen(page, 'full.kprof.npy');
        fl = await pageOf(page, 'full.kprof.npy');
        await painted(fl);
        await summaryTab(fl);
        facts = (await fl.locator('#summaryView .kprof-facts').textContent()) ?? '';
        if (/layout\s*mirage/.test(facts)) break;
        if (Date.now() > deadline) throw new Error(`with the setting at mirage, full.kprof.npy is still read as "${facts}"`);
        await pressUntil(page, 'Control+W', page.locator('.tabs-container .tab', { hasText: 'full.kprof.npy' }), 'detached', 'closing full.kprof.npy');
      }
      ctx.say(`    setting npuTrace.kprof.layout = mirage → ${facts?.slice(0, 60)}`);

      // Back to auto for this buffer: its 12 lanes all ran out of slots, said above the tables.
      await palette(page, 'NPU Trace: Profiler Buffer: Pick Layout…');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: /detected from the records/ }).first().click();
      await fl.locator('#summaryView .kprof-facts').filter({ hasText: /layout\s*tvm/ }).waitFor({ timeout: STEP_MS });
      const warning = fl.locator('#summaryView .kprof-warning', { hasText: 'Most lanes ran out of buffer' });
      await warning.waitFor({ timeout: STEP_MS })
        .catch(async () => { throw new Error(`no buffer-full warning; the Summary reads "${(await fl.locator('#summaryView').textContent().catch(() => ''))?.slice(0, 300)}"`); });
      const warnBox = await warning.boundingBox();
      const firstTable = await fl.locator('#summaryView table').first().boundingBox();
      if (!warnBox || !firstTable || warnBox.y > firstTable.y) throw new Error('the buffer-full warning is not above the statistics');
      if (!/buffer full\s*12 of 12 lanes/.test((await fl.locator('#summaryView .kprof-facts').textContent()) ?? '')) throw new Error('the facts do not count the 12 full lanes');
      await ctx.shoot(page, 'kprof-buffer-full');
      ctx.say('    full.kprof.npy: "Most lanes ran out of buffer" above its tables');
    },
  },
];
