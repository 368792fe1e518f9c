/**
 * A Perfetto protobuf trace in the real VS Code (code-server in Chromium), driven with keyboard and
 * mouse: Quick Open a `.pftrace` (an Android system trace with NNAPI's atrace marks, generated as
 * traced_probes lays it out) → it opens in the read-only timeline editor with a track per thread and
 * every slice; the status bar gives its facts; a click on a slice → the details pane shows the
 * packet decoded at its byte offset; Show Summary → the busiest slices and the NNAPI timing
 * summary; a truncated copy → its perfetto.* problem in the Problems panel.
 *
 * One of the UI journeys of test/e2e/harness/ui.ts. Every wait is for a state, never a delay.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { perfettoTimeline } from '../../../core/perfetto/timeline';
import type { TimelineModel } from '../../../core/timeline/model';
import { systraceToPerfetto } from '../../gen/perfettoGen';
import { pageOf, problemsPanelLists } from './formats';
import { quickOpen, STEP_MS } from './keys';
import { revealItem } from './reveal';
import { palette } from './timeline';
import type { UiContext } from './ui';

interface PageModel {
  format: string;
  strings: string[];
  tracks: { name: string; kind: string; parent: number }[];
  items: { name: Uint32Array };
}
interface PageTimeline {
  __timeline: { perf: { firstPaint: number }; state(): { model: PageModel } | undefined };
}

/** Tracks as "parent / name" and item names (sorted), as the model has them. */
function shape(m: Pick<PageModel, 'strings' | 'tracks'> & { items: { name: ArrayLike<number> } }): { tracks: string[]; names: string[] } {
  return {
    tracks: m.tracks.map((t) => (t.parent >= 0 ? `${m.tracks[t.parent].name} / ${t.name}` : t.name)),
    names: Array.from(m.items.name, (n) => m.strings[n]).sort(),
  };
}

/**
 * "View: Reopen Editor With…" and the editor whose name holds `editor`. The palette can close
 * before its list is drawn while the focus settles on a new editor (seen once): opened again, after
 * Escape, up to three times.
 */
async function reopenWith(page: Page, editor: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+Shift+P');
    const input = page.locator('.quick-input-widget input');
    const typed = await input.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false);
    if (typed) {
      await page.keyboard.type('Reopen Editor With');
      const row = page.locator('.quick-input-widget .monaco-list-row:visible', { hasText: 'Reopen Editor With' }).first();
      if (await row.waitFor({ timeout: attempt < 3 ? 10_000 : STEP_MS }).then(() => true, () => false)) {
        await page.keyboard.press('Enter');
        const pick = page.locator('.quick-input-widget .monaco-list-row:visible', { hasText: editor }).first();
        if (await pick.waitFor({ timeout: attempt < 3 ? 10_000 : STEP_MS }).then(() => true, () => false)) {
          await pick.click();
          return;
        }
      }
    }
    if (attempt === 3) throw new Error(`"Reopen Editor With…" never offered "${editor}"`);
    await page.keyboard.press('Escape');
  }
}

export const perfettoJourneys = [
  {
    name: 'Perfetto: a .pftrace opens in the read-only timeline with its thread tracks and every slice; a click shows the packet at its byte offset; Show Summary gives the NNAPI timing rows; a truncated copy lists perfetto.truncated-packet',
    async run(page: Page, ctx: UiContext): Promise<void> {
      // Written before the first Quick Open, whose file list is cached for the session.
      const bytes = systraceToPerfetto(readFileSync(join(ctx.workspace, 'nnapi-mobilenet.systrace'), 'utf8'));
      writeFileSync(join(ctx.workspace, 'mobilenet.pftrace'), bytes);
      writeFileSync(join(ctx.workspace, 'cut.pftrace'), bytes.subarray(0, bytes.length - 7));
      // As `adb shell perfetto -o /data/misc/perfetto-traces/trace` names it: no extension.
      writeFileSync(join(ctx.workspace, 'devicetrace'), bytes);
      const want: TimelineModel = perfettoTimeline(bytes);
      const wantShape = shape(want);

      await quickOpen(page, 'mobilenet.pftrace');
      const frame = await pageOf(page, 'mobilenet.pftrace');
      await frame.waitForFunction(() => ((window as unknown as PageTimeline).__timeline?.perf.firstPaint ?? 0) > 0, undefined, { timeout: STEP_MS });
      const drawn = await frame.evaluate(() => {
        const m = (window as unknown as PageTimeline).__timeline.state()!.model;
        return { format: m.format, strings: m.strings, tracks: m.tracks, items: { name: Array.from(m.items.name) } };
      });
      if (drawn.format !== 'perfetto') throw new Error(`the editor drew a ${drawn.format} model`);
      const got = shape(drawn);
      if (got.tracks.join('\n') !== wantShape.tracks.join('\n')) throw new Error(`tracks ${JSON.stringify(got.tracks)}, expected ${JSON.stringify(wantShape.tracks)}`);
      if (got.names.join('\n') !== wantShape.names.join('\n')) throw new Error(`slices ${JSON.stringify(got.names)}, expected ${JSON.stringify(wantShape.names)}`);
      const threads = want.tracks.filter((t) => t.parent >= 0 && t.kind === 'slices').length;
      ctx.say(`    opened in the timeline editor: ${threads} thread tracks, all ${got.names.length} slices`);

      const events = `${want.items.start.length} events`;
      await page.locator('.statusbar-item', { hasText: events }).first().waitFor({ timeout: STEP_MS })
        .catch(async () => { throw new Error(`the status bar never showed "${events}"; it reads "${await page.locator('.statusbar').textContent()}"`); });
      ctx.say(`    status bar: ${events}`);

      // A click on the model's outermost NNAPI slice: the packet decoded at its byte offset.
      const name = '[NN_LA_PO]mobilenet';
      const k = Array.from(want.items.name).findIndex((n) => want.strings[n] === name);
      const offset = want.chars!.char[k];
      const at = await revealItem(frame, { name });
      await frame.locator('#canvas').click({ position: { x: at.x, y: at.y } });
      const details = frame.locator('#details');
      await details.filter({ hasText: /print\.buf/ }).waitFor({ timeout: STEP_MS })
        .catch(async () => { throw new Error(`after clicking ${name} the details never showed its packet; they read "${(await details.textContent().catch(() => ''))?.slice(0, 400)}"`); });
      const text = (await details.textContent()) ?? '';
      for (const w of ['byte offset', String(offset), 'B|100|[NN_LA_PO]mobilenet']) if (!text.includes(w)) throw new Error(`the details of ${name} lack ${w}: ${text.slice(0, 400)}`);
      ctx.say(`    click on ${name} → its ftrace print decoded at byte ${offset}`);
      // The mouse off the canvas, so its tooltip does not cover the details in the screenshot.
      await page.mouse.move(200, 600);
      await frame.locator('#tooltip').waitFor({ state: 'hidden', timeout: STEP_MS }).catch(() => undefined);
      await ctx.shoot(page, 'perfetto-details');

      await palette(page, 'NPU Trace: Show Summary');
      const table = want.summaryTables!.find((t) => /self-times/.test(t.id))!;
      const rows = frame.locator(`#summaryView section[data-table="${table.id}"] tbody tr`);
      await rows.first().waitFor({ timeout: STEP_MS })
        .catch(async () => { throw new Error(`the Summary has no ${table.id} table; it reads "${(await frame.locator('#summaryView').textContent().catch(() => ''))?.slice(0, 400)}"`); });
      if ((await rows.count()) !== table.rows.length) throw new Error(`the Summary's ${table.id} has ${await rows.count()} rows, nnapi-stats ${table.rows.length}`);
      const first = (await rows.first().locator('td').first().textContent())?.trim();
      if (first !== 'Application') throw new Error(`the first NNAPI timing row is "${first}"`);
      await frame.locator('#summaryView section[data-table="busiest-slices"] tbody tr').first().waitFor({ timeout: STEP_MS });
      ctx.say(`    Show Summary → busiest slices and the NNAPI timing summary (${table.rows.length} layer rows)`);
      await ctx.shoot(page, 'perfetto-summary');

      await quickOpen(page, 'cut.pftrace');
      await pageOf(page, 'cut.pftrace');
      await problemsPanelLists(page, ['perfetto.truncated-packet']);
      ctx.say('    the truncated copy: perfetto.truncated-packet in the Problems panel');
      await ctx.shoot(page, 'perfetto-problems');

      // A trace of no known name: VS Code shows nothing of it; Reopen Editor With… the timeline by content.
      await page.keyboard.press('Control+Shift+M');
      await quickOpen(page, 'devicetrace');
      // VS Code's placeholder for a binary file: its Open Anyway offers the editors that take any file.
      const anyway = page.locator('.editor-container .monaco-button', { hasText: 'Open Anyway' }).first();
      await anyway.waitFor({ timeout: STEP_MS });
      await anyway.click();
      const offered = page.locator('.quick-input-widget .monaco-list-row:visible', { hasText: 'by content' }).first();
      let how = 'Open Anyway';
      if (await offered.waitFor({ timeout: 15_000 }).then(() => true, () => false)) await offered.click();
      else {
        how = 'Reopen Editor With…';
        await reopenWith(page, 'by content');
      }
      const byContent = await pageOf(page, 'devicetrace');
      await byContent.waitForFunction(() => ((window as unknown as PageTimeline).__timeline?.perf.firstPaint ?? 0) > 0, undefined, { timeout: STEP_MS });
      const n = await byContent.evaluate(() => {
        const m = (window as unknown as PageTimeline).__timeline.state()!.model;
        return `${m.format} ${m.items.name.length}`;
      });
      if (n !== `perfetto ${want.items.start.length}`) throw new Error(`devicetrace reopened by content drew ${n}`);
      ctx.say(`    devicetrace (no extension): ${how} → NPU Trace Timeline (read-only, by content) → ${n.replace(' ', ' timeline, ')} items`);
    },
  },
];
