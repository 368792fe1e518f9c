/**
 * UI journeys for the formats added with issues #15-#17, driven with keyboard and mouse in the real
 * VS Code (code-server in Chromium): an InferScope trace's problems and timeline, a PyTorch Chrome
 * trace's timeline and the Chrome Trace export through the save dialog, and a kernel-profiler
 * buffer in its custom editor. The page's `__timeline` hook gives the model and the layout, so a
 * test reads what was drawn and clicks where the page drew an item.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { genKprof, npyBytes, warpSpecProgram } from '../../gen/kprofGen';
import { findInEditor, fullyDrawn, hoverAtCursor, pressUntil, problemsInStatusBar, quickOpen, STEP_MS } from './keys';
import { revealItem, type Revealed } from './reveal';
import { palette, timelineFrame } from './timeline';
import type { UiContext } from './ui';

interface PageState {
  scrollY: number;
  bands: { kind: string; rowFrom: number; rowTo: number; y: number; h: number }[];
  index: { rowOfItem: ArrayLike<number> };
  model: { format: string; unit?: string; strings: string[]; tracks: { name: string; kind: string; parent: number }[]; items: { start: Float64Array; end: Float64Array; name: Uint32Array; line: Uint32Array; endLine: Uint32Array } };
  viewport: { width: number; x(t: number): number; set(a: number, b: number, bounds: unknown): void };
}
interface PageTimeline {
  __timeline: { perf: { firstPaint: number }; redraw(): void; state(): PageState | undefined };
}

/** What the page drew: its format, unit, tracks ("parent / name") and item names. */
interface Drawn {
  format: string;
  unit: string | undefined;
  tracks: string[];
  names: string[];
}

/** The webview frame of the page titled with `name` (a hidden editor keeps its page: retainContextWhenHidden). */
export async function pageOf(page: Page, name: string): Promise<Frame> {
  const deadline = Date.now() + STEP_MS;
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      if (!(await f.locator('#canvas').count().catch(() => 0))) continue;
      if ((await f.title().catch(() => '')).includes(name)) return f;
    }
    await page.waitForEvent('frameattached', { timeout: 1000 }).catch(() => undefined);
  }
  throw new Error(`no timeline page for ${name} appeared`);
}

export async function painted(frame: Frame): Promise<Drawn> {
  await frame.waitForFunction(() => ((window as unknown as PageTimeline).__timeline?.perf.firstPaint ?? 0) > 0, undefined, { timeout: STEP_MS });
  return frame.evaluate(() => {
    const m = (window as unknown as PageTimeline).__timeline.state()!.model;
    const tracks = m.tracks.map((t) => (t.parent >= 0 ? `${m.tracks[t.parent].name} / ${t.name}` : t.name));
    return { format: m.format, unit: m.unit, tracks, names: Array.from(new Set(Array.from(m.items.name, (n) => m.strings[n]))) };
  });
}

function expectTracks(drawn: Drawn, want: string[]): void {
  const missing = want.filter((t) => !drawn.tracks.includes(t));
  if (missing.length) throw new Error(`the ${drawn.format} timeline lacks the tracks ${JSON.stringify(missing)}; it has ${JSON.stringify(drawn.tracks)}`);
}

/** The first item named `name`, in view at a readable zoom. */
function showNamed(frame: Frame, name: string): Promise<Revealed> {
  return revealItem(frame, { name });
}

/**
 * Clicks the item named `name` and returns the text of the details pane once it matches `want`:
 * something only its fields (sent by the host after "Loading fields…") hold.
 */
async function clickForDetails(frame: Frame, name: string, want: RegExp): Promise<string> {
  const at = await showNamed(frame, name);
  await frame.locator('#canvas').click({ position: { x: at.x, y: at.y } });
  const details = frame.locator('#details');
  try {
    await details.filter({ hasText: want }).waitFor({ timeout: STEP_MS });
  } catch {
    throw new Error(`after clicking ${name} the details pane never matched ${want}; it reads "${(await details.textContent().catch(() => ''))?.slice(0, 400)}"`);
  }
  return (await details.textContent()) ?? '';
}

export async function problemsPanelLists(page: Page, codes: string[]): Promise<void> {
  const panel = page.locator('.markers-panel');
  // Ctrl+Shift+M toggles the panel: pressed only while it is not shown.
  if (!(await panel.isVisible())) await pressUntil(page, 'Control+Shift+M', panel, 'visible', 'the Problems panel');
  for (const code of codes) {
    await panel.locator('.monaco-list-row', { hasText: code }).first().waitFor({ timeout: STEP_MS })
      .catch(async () => { throw new Error(`the Problems panel has no ${code}; it shows "${(await panel.textContent())?.slice(0, 400)}"`); });
  }
}

export const formatJourneys = [
  {
    name: 'InferScope: the faulty trace\'s codes in the Problems panel; Show Timeline draws scopes, CPU and GPU streams; a click shows the event; hover on an id gives its duration',
    async run(page: Page, ctx: UiContext): Promise<void> {
      await quickOpen(page, 'faulty.inferscope.json');
      await page.locator('[id="status.editor.mode"]', { hasText: 'InferScope' }).waitFor({ timeout: STEP_MS });
      // Sorted by position: the version on line 2 first, then the first events' mistakes.
      await problemsPanelLists(page, ['inferscope.unsupported-version', 'inferscope.duration-mismatch', 'inferscope.schema']);
      await page.keyboard.press('Control+Shift+M');

      await quickOpen(page, 'llm-requests.inferscope.json');
      await page.locator('[id="status.editor.mode"]', { hasText: 'InferScope' }).waitFor({ timeout: STEP_MS });
      await palette(page, 'NPU Trace: Show Timeline');
      const frame = await timelineFrame(page);
      const drawn = await painted(frame);
      if (drawn.format !== 'inferscope' || drawn.unit !== 'µs') throw new Error(`the timeline is ${drawn.format} in ${drawn.unit}`);
      expectTracks(drawn, ['Scopes / scope hierarchy', 'CPU / thread 12345', 'GPU 0 / stream 7', 'GPU 0 / stream 8', 'Copy engines / H2D GPU 0']);
      for (const n of ['inference', 'tokenize', 'attention_forward']) if (!drawn.names.includes(n)) throw new Error(`no ${n} drawn: ${drawn.names.join(', ')}`);
      ctx.say(`    timeline painted: ${drawn.tracks.length} tracks`);

      // The details of a clicked kernel: its own fields, from the event's lines (it spans many).
      const details = await clickForDetails(frame, 'attention_forward', /duration_us/);
      for (const want of ['"gpu_kernel"', '"k7_0_0"', 'kindgpu_kernel']) if (!details.includes(want)) throw new Error(`the details of attention_forward lack ${want}: ${details.slice(0, 400)}`);
      ctx.say('    click on attention_forward → its fields in the details pane');

      // Hover on an event id in the editor: its duration.
      await page.locator('.tabs-container .tab', { hasText: 'llm-requests.inferscope.json' }).first().click();
      await page.locator('.monaco-editor .view-lines').first().click();
      await findInEditor(page, '"tok_0"');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowRight');
      const hover = await hoverAtCursor(page, 'tokenize');
      const text = (await hover.first().textContent()) ?? '';
      if (!text.includes('duration 1500 µs')) throw new Error(`the hover on "tok_0" lacks its duration: ${text}`);
      ctx.say('    hover on "tok_0" → duration 1500 µs');
      await fullyDrawn(page, 'duration 1500 µs');
      await ctx.shoot(page, 'inferscope-timeline');
    },
  },
  {
    name: 'Chrome Trace: a PyTorch profile opens as Chrome Trace and Show Timeline draws its processes and streams; Export as Chrome Trace through the save dialog writes valid JSON',
    async run(page: Page, ctx: UiContext): Promise<void> {
      copyFileSync(join(ctx.root, 'test/fixtures/chrome/pytorch.pt.trace.json'), join(ctx.workspace, 'pytorch.pt.trace.json'));
      await quickOpen(page, 'pytorch.pt.trace.json');
      await page.locator('[id="status.editor.mode"]', { hasText: 'Chrome Trace' }).waitFor({ timeout: STEP_MS });
      await problemsInStatusBar(page, 0, 0);
      await palette(page, 'NPU Trace: Show Timeline');
      const frame = await timelineFrame(page);
      const drawn = await painted(frame);
      if (drawn.format !== 'chrome-trace') throw new Error(`the timeline is ${drawn.format}`);
      expectTracks(drawn, ['python3 / thread 1234 (python3)', 'GPU 0 / stream 7', 'GPU 0 / stream 8']);
      for (const n of ['aten::linear', 'ampere_sgemm_64x64_nn_0', 'cudaLaunchKernel']) if (!drawn.names.includes(n)) throw new Error(`no ${n} drawn: ${drawn.names.join(', ')}`);
      const details = await clickForDetails(frame, 'ampere_sgemm_64x64_nn_0', /"kernel"/);
      if (!details.includes('"kernel"')) throw new Error(`the kernel's details lack its category: ${details.slice(0, 400)}`);
      ctx.say(`    timeline painted: ${drawn.tracks.length} tracks; a kernel clicked`);
      await ctx.shoot(page, 'chrome-timeline');

      // Export the NPU example: the save dialog proposes llm-layer.chrome.json beside it; Enter takes it.
      await quickOpen(page, 'llm-layer.trace.jsonl');
      await palette(page, 'NPU Trace: Export as Chrome Trace (Perfetto)');
      const input = page.locator('.quick-input-widget input');
      await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('.quick-input-widget input')?.value ?? '').endsWith('llm-layer.chrome.json'), undefined, { timeout: STEP_MS })
        .catch(async () => { throw new Error(`the save dialog proposes "${await input.inputValue().catch(() => '?')}"`); });
      await page.keyboard.press('Enter');
      await page.locator('.notifications-toasts', { hasText: 'Exported llm-layer.chrome.json' }).waitFor({ timeout: STEP_MS });
      const out = join(ctx.workspace, 'llm-layer.chrome.json');
      if (!existsSync(out)) throw new Error(`the notification says exported, but ${out} does not exist`);
      const json = JSON.parse(readFileSync(out, 'utf8')) as { traceEvents?: { ph?: string; name?: string; dur?: number }[] };
      const events = json.traceEvents ?? [];
      const spans = events.filter((e) => e.ph === 'X' && (e.dur ?? 0) > 0);
      if (spans.length < 10 || !events.some((e) => e.ph === 'M')) throw new Error(`the export has ${events.length} events, ${spans.length} complete spans`);
      ctx.say(`    exported llm-layer.chrome.json: ${events.length} events, ${spans.length} spans`);
    },
  },
  {
    name: 'Kernel profiler: a *.kprof.npy opens in its editor with a track per group under each block; a click shows a span\'s two records; a buffer that lost records lists its problems',
    async run(page: Page, ctx: UiContext): Promise<void> {
      // Written before the first Quick Open, whose file list is cached for the session.
      // Lane 7 never finalizes and 300 slots are too few: one warning, six errors.
      const g = genKprof({ blocks: 2, groups: 6, program: warpSpecProgram, noFinalize: [7], slots: 300 });
      writeFileSync(join(ctx.workspace, 'lost.kprof.npy'), npyBytes(g.words));
      copyFileSync(join(ctx.workspace, 'warpspec.kprof.names.txt'), join(ctx.workspace, 'lost.kprof.names.txt'));
      await quickOpen(page, 'warpspec.kprof.npy');
      const frame = await pageOf(page, 'warpspec.kprof.npy');
      const drawn = await painted(frame);
      if (drawn.format !== 'kprof') throw new Error(`the editor drew a ${drawn.format} model`);
      expectTracks(drawn, [0, 1].flatMap((b) => [0, 1, 2, 3, 4, 5].map((g) => `block ${b} / group ${g}`)));
      for (const n of ['issue-tma-k', 'mma-qk', 'softmax-exp2', 'epilogue']) if (!drawn.names.includes(n)) throw new Error(`no ${n} drawn: ${drawn.names.join(', ')}`);
      const details = await clickForDetails(frame, 'epilogue', /type\s*"?end/);
      for (const want of [/epilogue/, /raw\s*"?0x[0-9a-f]{16}/, /type\s*"?start/, /block\s*"?0/, /slot\s*195 → 207/]) if (!want.test(details)) throw new Error(`the epilogue's records lack ${want}: ${details.slice(0, 400)}`);
      ctx.say('    lanes drawn; click on epilogue → its START and END records');
      // The mouse off the canvas, so its tooltip does not cover the records in the screenshot.
      await page.mouse.move(200, 600);
      await frame.locator('#tooltip').waitFor({ state: 'hidden', timeout: STEP_MS }).catch(() => undefined);
      await ctx.shoot(page, 'kprof-editor');

      await quickOpen(page, 'lost.kprof.npy');
      const lost = await painted(await pageOf(page, 'lost.kprof.npy'));
      if (lost.tracks.length !== drawn.tracks.length || !lost.names.includes('mma-qk')) throw new Error(`the buffer that lost records drew ${JSON.stringify(lost)}`);
      await problemsInStatusBar(page, 6, 1);
      await page.locator('.statusbar-item', { hasText: '7 problem(s)' }).waitFor({ timeout: STEP_MS })
        .catch(() => { throw new Error('the status bar never showed the facts of lost.kprof.npy (7 problems)'); });
      await problemsPanelLists(page, ['kprof.not-finalized', 'kprof.buffer-full']);
      await ctx.shoot(page, 'kprof-problems');
    },
  },
];
