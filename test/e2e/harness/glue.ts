/**
 * UI journeys for the editor glue merged with issues #15, #17 and #18, driven with keyboard and
 * mouse in the real VS Code: the CMDQ ↔ trace join (hover, Show Layer in Timeline, Show in CMDQ),
 * an InferScope finding's "Events:" link to the timeline, and a one-line Chrome trace whose events
 * share one line (click ↔ the event's characters). The page's `__timeline` hook gives the model and
 * the layout, so a test clicks where the page drew an item and reads what it selected.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Frame, Page } from 'playwright-core';
import { analyze } from '../../../core/inferscope/analyze';
import { eventLines } from '../../../core/inferscope/citations';
import { InferscopeDocument } from '../../../core/inferscope/document';
import { markdownReport } from '../../../core/inferscope/reportOutput';
import { findInEditor, fullyDrawn, goToLine, hoverAtCursor, pressUntil, problemsInStatusBar, quickOpen, STEP_MS } from './keys';
import { revealItem, type Revealed } from './reveal';
import { palette, timelineFrame } from './timeline';
import type { UiContext } from './ui';

interface PageState {
  selected: number;
  scrollY: number;
  bands: { kind: string; rowFrom: number; rowTo: number; y: number; h: number }[];
  index: { rowOfItem: ArrayLike<number>; itemOfLine: ArrayLike<number> };
  model: {
    strings: string[];
    items: { start: Float64Array; end: Float64Array; name: Uint32Array; line: Uint32Array };
    chars?: { char: Uint32Array; charEnd: Uint32Array };
  };
  viewport: { width: number; x(t: number): number; set(a: number, b: number, bounds: unknown): void };
}
interface PageTimeline {
  __timeline: { perf: { firstPaint: number }; redraw(): void; state(): PageState | undefined };
}

/** The report view's frame: the webview whose page has the report's heading. */
async function reportFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + STEP_MS;
  while (Date.now() < deadline) {
    for (const f of page.frames()) if (await f.locator('h1', { hasText: 'InferScope Performance Report' }).count().catch(() => 0)) return f;
    await page.waitForEvent('frameattached', { timeout: 1000 }).catch(() => undefined);
  }
  throw new Error('the report view never appeared');
}

async function painted(frame: Frame): Promise<void> {
  await frame.waitForFunction(() => ((window as unknown as PageTimeline).__timeline?.perf.firstPaint ?? 0) > 0, undefined, { timeout: STEP_MS });
}

/** The selected item of the page: its index, name and line (-1 when none). */
function selectedOf(frame: Frame): Promise<{ i: number; name: string; line: number }> {
  return frame.evaluate(() => {
    const s = (window as unknown as PageTimeline).__timeline.state();
    if (!s || s.selected < 0) return { i: -1, name: '', line: -1 };
    return { i: s.selected, name: s.model.strings[s.model.items.name[s.selected]], line: s.model.items.line[s.selected] };
  });
}

async function waitSelected(frame: Frame, ok: (sel: { i: number; name: string; line: number }) => boolean, what: string): Promise<{ i: number; name: string; line: number }> {
  const deadline = Date.now() + STEP_MS;
  let sel = await selectedOf(frame);
  while (!ok(sel)) {
    if (Date.now() > deadline) throw new Error(`${what}: the timeline selects ${JSON.stringify(sel)}`);
    await frame.waitForTimeout(100);
    sel = await selectedOf(frame);
  }
  return sel;
}

/** Waits until the status bar's cursor item matches `want` (e.g. "Ln 4, Col 9 (1 selected)"). */
async function statusReads(page: Page, want: string, what: string): Promise<void> {
  const status = page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first();
  await page.locator('.statusbar-item', { hasText: want }).first().waitFor({ timeout: STEP_MS })
    .catch(async () => { throw new Error(`${what}: the status bar reads "${await status.textContent().catch(() => '?')}", not "${want}"`); });
}

/** The `nth` item named `name`, in view at a readable zoom. */
function showNamed(frame: Frame, name: string, nth = 0): Promise<Revealed> {
  return revealItem(frame, { name, nth });
}

/** Copies a Chrome trace into the workspace, opens it (as Chrome Trace) and its painted timeline; gives its text and the page. */
async function openChromeTimeline(page: Page, ctx: UiContext, dir: string, file: string): Promise<{ text: string; frame: Frame }> {
  copyFileSync(join(ctx.root, dir, file), join(ctx.workspace, file));
  const text = readFileSync(join(ctx.workspace, file), 'utf8');
  await quickOpen(page, file);
  await page.locator('[id="status.editor.mode"]', { hasText: 'Chrome Trace' }).waitFor({ timeout: STEP_MS });
  await palette(page, 'NPU Trace: Show Timeline');
  const frame = await timelineFrame(page);
  await painted(frame);
  return { text, frame };
}

export const glueJourneys = [
  {
    name: 'CMDQ ↔ trace join: hover on a layer_id shows the measured layer; Show Layer in Timeline selects its first command; Show in CMDQ selects the layer\'s first entry',
    async run(page: Page, ctx: UiContext): Promise<void> {
      // The golden CMDQ with the trace's layer names (0 and 1), so the two join by layer_id alone.
      const cmdq = readFileSync(join(ctx.workspace, 'golden.cmdq.json'), 'utf8')
        .replace(/"layer_id": "ffn_0_ln"/g, '"layer_id": "0"').replace(/"layer_id": "ffn_0",/g, '"layer_id": "1",   ');
      writeFileSync(join(ctx.workspace, 'joined.cmdq.json'), cmdq);
      const trace = readFileSync(join(ctx.workspace, 'llm-layer.trace.jsonl'), 'utf8').split('\n');
      // Layer 1's first command is drawn from its CMD_START line (the span starts there).
      const enqueue = trace.findIndex((l) => l.includes('"event_type":"CMD_ENQUEUE"') && l.includes('"layer_id":1,'));
      const cmdId = /"cmd_id":(\d+),/.exec(trace[enqueue])![1];
      const firstCmd = trace.findIndex((l, k) => k > enqueue && l.includes('"event_type":"CMD_START"') && l.includes(`"cmd_id":${cmdId},`));
      const cmdqLines = cmdq.split('\n');
      const entry0 = cmdqLines.findIndex((l) => l.includes('"id": 0,'));
      const idCol = cmdqLines[entry0].indexOf('"id": 0,') + '"id": '.length;

      await quickOpen(page, 'llm-layer.trace.jsonl');
      await page.locator('[id="status.editor.mode"]', { hasText: 'NPU Trace' }).waitFor({ timeout: STEP_MS });
      await quickOpen(page, 'joined.cmdq.json');
      await page.locator('[id="status.editor.mode"]', { hasText: 'CMDQ' }).waitFor({ timeout: STEP_MS });
      await page.locator('.monaco-editor .view-lines').first().click();
      // The cursor inside the first entry's layer_id value "1" (entry 0; the only match, as Enter goes to the next one).
      await findInEditor(page, '(?<="id": 0, "layer_id": )"1"', true);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowRight');
      await statusReads(page, `Ln ${entry0 + 1},`, 'the layer_id found');
      const hover = await hoverAtCursor(page, 'Measured');
      const text = (await hover.first().textContent()) ?? '';
      // The numbers of `npu-trace stats --json examples/llm-layer.trace.jsonl`, layer 1 (test/lsp/cmdqTrace.test.ts).
      for (const want of ['llm-layer.trace.jsonl', 'span 9,611 cycles', '10 commands']) if (!text.includes(want)) throw new Error(`the hover lacks "${want}": ${text}`);
      ctx.say('    hover on layer_id "1" → measured span 9,611 cycles, 10 commands');
      await fullyDrawn(page, 'span 9,611 cycles');
      await ctx.shoot(page, 'cmdq-join-hover');
      await page.keyboard.press('Escape');

      await palette(page, 'CMDQ: Show Layer in Timeline');
      const frame = await timelineFrame(page);
      await painted(frame);
      const sel = await waitSelected(frame, (s) => s.line === firstCmd, `Show Layer in Timeline (layer 1's first command, ${cmdId}, starts on line ${firstCmd + 1})`);
      if (sel.name !== 'LAYERNORM') throw new Error(`Show Layer in Timeline selected ${sel.name}, not command ${cmdId}'s LAYERNORM`);
      ctx.say(`    Show Layer in Timeline → command ${cmdId} (${sel.name}, line ${firstCmd + 1}) selected`);

      const button = frame.locator('#details button', { hasText: 'Show in CMDQ' });
      await button.waitFor({ timeout: STEP_MS })
        .catch(async () => { throw new Error(`no Show in CMDQ in the details: "${(await frame.locator('#details').textContent().catch(() => ''))?.slice(0, 300)}"`); });
      await ctx.shoot(page, 'cmdq-join-timeline');
      // Move the cursor elsewhere first, so the selection seen afterwards is the button's.
      await page.locator('.tabs-container .tab', { hasText: 'joined.cmdq.json' }).first().click();
      await page.keyboard.press('Control+End');
      await statusReads(page, `Ln ${cmdqLines.length}`, 'Ctrl+End in the CMDQ');
      await page.locator('.tabs-container .tab', { hasText: /Timeline: llm-layer/ }).first().click();
      await button.click();
      await page.locator('.tabs-container .tab.active', { hasText: 'joined.cmdq.json' }).waitFor({ timeout: STEP_MS });
      // Entry 0's id value selected, the cursor at its end (showTextDocument's selection).
      await statusReads(page, `Ln ${entry0 + 1}, Col ${idCol + 2} (1 selected)`, 'Show in CMDQ');
      // In the CMDQ's own editor: not a second copy opened over the timeline, which stays in view.
      const cmdqTabs = await page.locator('.tabs-container .tab', { hasText: 'joined.cmdq.json' }).count();
      const timelineShown = await page.locator('.tabs-container .tab.active', { hasText: /Timeline: llm-layer/ }).count();
      if (cmdqTabs !== 1 || timelineShown !== 1) throw new Error(`Show in CMDQ left ${cmdqTabs} tabs of joined.cmdq.json and the timeline ${timelineShown ? 'in view' : 'hidden'}`);
      ctx.say(`    Show in CMDQ → entry 0 (line ${entry0 + 1}) selected`);
      await ctx.shoot(page, 'cmdq-join-show-in-cmdq');
    },
  },
  {
    name: 'InferScope finding → timeline: Analyze Trace renders the report beside the trace, Copy Report as Markdown copies its Markdown; a click on an Events: link selects the cited event in a timeline opened in the report\'s group',
    async run(page: Page, ctx: UiContext): Promise<void> {
      const file = 'llm-requests.inferscope.json';
      const text = readFileSync(join(ctx.workspace, file), 'utf8');
      const model = InferscopeDocument.parse(text, `/${file}`);
      const result = analyze(model);
      const cited = [result.bottleneck.event_ids, ...result.suggestions.map((x) => x.event_ids)].filter((ids) => ids.length);
      const nth = cited.findIndex((ids) => ids[0] === 'tok_0');
      if (nth < 0) throw new Error(`the report cites no tok_0 first: ${JSON.stringify(cited.map((ids) => ids[0]))}`);
      const want = eventLines(model, cited[nth])[0];

      await quickOpen(page, file);
      await page.locator('[id="status.editor.mode"]', { hasText: 'InferScope' }).waitFor({ timeout: STEP_MS });
      await palette(page, 'InferScope: Analyze Trace');
      await page.locator('.tabs-container .tab.active', { hasText: `Report: ${file}` }).waitFor({ timeout: STEP_MS });
      const report = await reportFrame(page);
      // Rendered, not Markdown source: a heading, the breakdown bar, no backslash escapes.
      await report.locator('h1', { hasText: 'InferScope Performance Report' }).waitFor({ timeout: STEP_MS });
      if (!(await report.locator('svg rect').count())) throw new Error('the report has no breakdown bar');
      const body = (await report.locator('body').textContent()) ?? '';
      if (body.includes('\\')) throw new Error(`the report shows Markdown escapes: ${body.slice(0, 200)}`);
      // Its Markdown, from the title bar's command while the report is in front: what the core writes.
      await palette(page, 'InferScope: Copy Report as Markdown');
      const markdown = markdownReport(result, file).text;
      await page.waitForFunction(async (want) => (await navigator.clipboard.readText().catch(() => '')) === want, markdown, { timeout: STEP_MS, polling: 200 })
        .catch(async () => { throw new Error(`after Copy Report as Markdown the clipboard holds ${JSON.stringify((await page.evaluate(() => navigator.clipboard.readText()).catch(() => '')).slice(0, 200))}`); });
      const groups = await page.locator('.editor-group-container').count();
      await ctx.shoot(page, 'inferscope-report');
      const link = report.locator('p.cite a').nth(nth);
      await link.scrollIntoViewIfNeeded();
      await link.click();
      const frame = await timelineFrame(page);
      await painted(frame);
      const sel = await waitSelected(frame, (s) => s.line === want, `the Events: link of tok_0 (line ${want + 1})`);
      if (sel.name !== 'tokenize') throw new Error(`the link selected ${sel.name}, not tok_0's tokenize`);
      // The timeline is a tab in the report's group: no third column.
      const after = await page.locator('.editor-group-container').count();
      if (after !== groups) throw new Error(`the timeline opened a new editor group (${groups} → ${after})`);
      ctx.say(`    click on Events: tok_0… → ${sel.name} of line ${want + 1} selected, ${after} editor groups`);
      await ctx.shoot(page, 'inferscope-finding-timeline');
    },
  },
  {
    name: 'One-line Chrome trace: click a slice → the editor selects exactly its event\'s characters; cursor on another event → its slice selected; a launch\'s flow arrow drawn',
    async run(page: Page, ctx: UiContext): Promise<void> {
      const file = 'one-line.pt.trace.json';
      const { text, frame } = await openChromeTimeline(page, ctx, 'test/fixtures/chrome', file);

      const a = await showNamed(frame, 'aten::linear');
      const ev = text.slice(a.char, a.charEnd);
      if (a.line !== 0 || !ev.startsWith('{') || !ev.endsWith('}') || !ev.includes('"name":"aten::linear"')) throw new Error(`aten::linear's characters [${a.char}, ${a.charEnd}) hold ${ev.slice(0, 200)}`);
      await frame.locator('#canvas').click({ position: { x: a.x, y: a.y } });
      await page.locator('.tabs-container .tab', { hasText: file }).first().click();
      // The cursor at the event's start, its characters selected.
      await statusReads(page, `Ln 1, Col ${a.char + 1} (${a.charEnd - a.char} selected)`, 'a click on aten::linear');
      ctx.say(`    click on aten::linear → characters ${a.char}-${a.charEnd} of line 1 selected`);

      // Ctrl+G 1:<column> puts the cursor inside another event of the line.
      const b = await showNamed(frame, 'cudaLaunchKernel');
      await page.keyboard.press('Control+G');
      await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: STEP_MS });
      await page.keyboard.type(`1:${b.char + 3}`);
      await page.keyboard.press('Enter');
      await statusReads(page, `Ln 1, Col ${b.char + 3}`, 'Ctrl+G into cudaLaunchKernel');
      await waitSelected(frame, (s) => s.i === b.i, `the cursor at column ${b.char + 3} (cudaLaunchKernel)`);
      ctx.say(`    cursor at column ${b.char + 3} → cudaLaunchKernel selected`);

      // The launch's details list its flow to the kernel; the arrow is drawn from the selected slice.
      const details = frame.locator('#details');
      await details.filter({ hasText: /Flow to \(\d+\)/ }).waitFor({ timeout: STEP_MS })
        .catch(async () => { throw new Error(`the launch's details list no flow: "${(await details.textContent().catch(() => ''))?.slice(0, 300)}"`); });
      await frame.evaluate(async () => {
        const tl = (window as unknown as PageTimeline).__timeline;
        const s = tl.state()!;
        const it = s.model.items;
        // Zoom out to the launch and the kernels after it, so the arrow has room on screen.
        s.viewport.set(it.start[s.selected] - 20, it.end[s.selected] + 120, s.model);
        s.scrollY = 0;
        tl.redraw();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      });
      await page.mouse.move(5, 600);
      await ctx.shoot(page, 'chrome-one-line-flow');
    },
  },
  {
    name: 'PyTorch 2.x trace as Kineto writes it (each ac2g flow\'s f before its s): click a launch → its flow to the kernel listed; click the flow → the kernel selected, the editor on the kernel\'s event',
    async run(page: Page, ctx: UiContext): Promise<void> {
      const file = 'eager-step.pt.trace.json';
      const { text, frame } = await openChromeTimeline(page, ctx, 'test/fixtures/real/pytorch', file);
      const lines = text.split('\n');

      const launch = await showNamed(frame, 'cudaLaunchKernel');
      await frame.locator('#canvas').click({ position: { x: launch.x, y: launch.y } });
      await waitSelected(frame, (x) => x.i === launch.i, 'a click on cudaLaunchKernel');
      // Its flow is paired although the file holds the flow's end before its start.
      const flowTo = frame.locator('#details h3', { hasText: /^Flow to \(1\)/ });
      await flowTo.waitFor({ timeout: STEP_MS })
        .catch(async () => { throw new Error(`the launch's details list no flow to a kernel: "${(await frame.locator('#details').textContent().catch(() => ''))?.slice(0, 300)}"`); });
      await flowTo.locator('xpath=following-sibling::ul[1]//button').first().click();
      const kernel = await waitSelected(frame, (x) => x.i !== launch.i && x.i >= 0, 'a click on the flow to the kernel');
      const event = lines.slice(kernel.line, kernel.line + 3).join('\n');
      if (!event.includes('"cat": "kernel"')) throw new Error(`the flow selected ${kernel.name} at line ${kernel.line + 1}, not a kernel: ${event.slice(0, 200)}`);
      // The editor follows the selection to the kernel's event (the cursor's status item shows once the editor has focus).
      await page.locator('.tabs-container .tab', { hasText: file }).first().click();
      const status = page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first();
      const onKernel = async () => {
        const ln = Number(/Ln (\d+),/.exec((await status.textContent().catch(() => '')) ?? '')?.[1] ?? 0);
        return ln >= kernel.line + 1 && ln <= kernel.line + 3;
      };
      const deadline = Date.now() + STEP_MS;
      while (!(await onKernel())) {
        if (Date.now() > deadline) throw new Error(`the editor did not follow to the kernel at line ${kernel.line + 1}: "${await status.textContent().catch(() => '?')}"`);
        await page.waitForTimeout(100);
      }
      ctx.say(`    cudaLaunchKernel → flow → ${kernel.name.slice(0, 60)} (line ${kernel.line + 1})`);
      await page.mouse.move(5, 600);
      await ctx.shoot(page, 'pytorch-flow');
    },
  },
  {
    name: 'PyTorch flows as Perfetto draws them: none at full view without a selection; the cursor inside a step\'s pretty-printed event selects it → the flows of its launches; Fit all, Flows: all → every flow',
    async run(page: Page, ctx: UiContext): Promise<void> {
      const { text, frame } = await openChromeTimeline(page, ctx, 'test/fixtures/real/pytorch', 'eager-step.pt.trace.json');
      // The page counts the arrows of its last frame; each step waits until the count is what it should be.
      const waitArrows = async (ok: string, what: string): Promise<number> => {
        const read = () => frame.evaluate(() => (window as unknown as { __timeline: { state(): { arrowsDrawn: number } } }).__timeline.state().arrowsDrawn);
        await frame.waitForFunction((op) => {
          const [cmp, x] = op.split(' ');
          const n = (window as unknown as { __timeline: { state(): { arrowsDrawn: number } } }).__timeline.state().arrowsDrawn;
          return cmp === '=' ? n === Number(x) : n > Number(x);
        }, ok, { timeout: STEP_MS }).catch(async () => { throw new Error(`${what}: ${await read()} arrows drawn, wanted ${ok}`); });
        return read();
      };
      await waitArrows('= 0', 'no selection at full view');
      // The cursor on a line inside the step's pretty-printed event (its "ts" line) selects the step.
      const lines = text.split('\n');
      const at = lines.findIndex((l) => l.includes('"name": "ProfilerStep#2"'));
      const tsLine = lines.findIndex((l, k) => k > at && l.includes('"ts":'));
      await page.locator('.tabs-container .tab', { hasText: 'eager-step.pt.trace.json' }).first().click();
      await goToLine(page, tsLine + 1);
      await waitSelected(frame, (x) => x.name === 'ProfilerStep#2', `the cursor on line ${tsLine + 1}, inside ProfilerStep#2's event`);
      const family = await waitArrows('> 1', 'the step\'s launches');
      ctx.say(`    ProfilerStep#2 selected → ${family} flows of its launches`);
      await page.mouse.move(5, 600);
      await ctx.shoot(page, 'chrome-flows-selection');
      // Every flow of both steps, once the whole trace is in view.
      await frame.locator('vscode-button[aria-label="Fit all"]').click();
      await frame.locator('#flowsToggle').click();
      await frame.locator('#flowsToggle', { hasText: 'Flows: all' }).waitFor({ timeout: STEP_MS });
      const all = await waitArrows(`> ${family}`, 'Flows: all');
      ctx.say(`    Flows: all → ${all} arrows`);
    },
  },
  {
    name: 'Show Timeline by content, whatever the name: a PyTorch trace saved as compiled_infer.json, a Proton .chrome_trace and an InferScope trace.json each get their language and their timeline',
    async run(page: Page, ctx: UiContext): Promise<void> {
      const cases = [
        { from: 'test/fixtures/real/pytorch/compiled-step.pt.trace.json', name: 'compiled_infer.json', language: 'Chrome Trace' },
        { from: 'test/fixtures/real/proton/matmul.chrome_trace', name: 'matmul.chrome_trace', language: 'Chrome Trace' },
        { from: 'test/fixtures/real/inferscope/gpt2_trace.json', name: 'trace.json', language: 'InferScope' },
      ];
      const seen = new Set<Frame>();
      // All written before the first Quick Open, whose file list may be kept from then on.
      for (const c of cases) copyFileSync(join(ctx.root, c.from), join(ctx.workspace, c.name));
      for (const c of cases) {
        await quickOpen(page, c.name);
        await page.locator('[id="status.editor.mode"]', { hasText: c.language }).waitFor({ timeout: STEP_MS });
        await palette(page, 'NPU Trace: Show Timeline');
        await page.locator('.tabs-container .tab.active', { hasText: `Timeline: ${c.name}` }).waitFor({ timeout: STEP_MS });
        // This file's page: the timeline frame that was not there before.
        const deadline = Date.now() + STEP_MS;
        let frame: Frame | undefined;
        while (!frame && Date.now() < deadline) {
          for (const f of page.frames()) if (!seen.has(f) && await f.locator('#canvas').count().catch(() => 0)) frame = f;
          if (!frame) await page.waitForEvent('frameattached', { timeout: 1000 }).catch(() => undefined);
        }
        if (!frame) throw new Error(`no timeline page for ${c.name}`);
        seen.add(frame);
        await painted(frame);
        const items = await frame.evaluate(() => (window as unknown as PageTimeline).__timeline.state()!.model.items.start.length);
        if (!(items > 0)) throw new Error(`the timeline of ${c.name} has no items`);
        ctx.say(`    ${c.name}: ${c.language}, timeline of ${items} items`);
      }
      await ctx.shoot(page, 'timeline-by-content');
    },
  },
  {
    name: 'A gzipped PyTorch trace (tensorboard_trace_handler(use_gzip=True)) opens straight into its read-only timeline, with its problems listed; Show Timeline from the palette shows that same timeline',
    async run(page: Page, ctx: UiContext): Promise<void> {
      const file = 'host_1.1700000000000.pt.trace.json.gz';
      writeFileSync(join(ctx.workspace, file), gzipSync(readFileSync(join(ctx.root, 'test/fixtures/real/pytorch/compiled-step.pt.trace.json'))));
      await quickOpen(page, file);
      const frame = await timelineFrame(page);
      await painted(frame);
      const items = await frame.evaluate(() => (window as unknown as PageTimeline).__timeline.state()!.model.items.start.length);
      if (!(items > 0)) throw new Error('the compressed trace\'s timeline has no items');
      ctx.say(`    ${file}: timeline of ${items} items in its own editor`);
      // Its problems, as npu-trace check finds them (the profiling window cut 4 flows).
      await problemsInStatusBar(page, 0, 4);
      await palette(page, 'NPU Trace: Show Timeline');
      await page.locator('.tabs-container .tab.active', { hasText: file }).waitFor({ timeout: STEP_MS });
      if ((await page.locator('.tabs-container .tab', { hasText: 'Timeline:' }).count()) !== 0) throw new Error('Show Timeline opened a second panel instead of showing the editor');
      await ctx.shoot(page, 'timeline-gz');
    },
  },
  {
    name: 'A PyTorch trace read as Perfetto and TensorBoard users expect: the ruler from the start, the GPU process with its label, the colour menus of its own fields, a kernel\'s times from the start and as written, the Summary\'s streams and kernels; an NNAPI slice\'s pid is a pid',
    async run(page: Page, ctx: UiContext): Promise<void> {
      const { frame } = await openChromeTimeline(page, ctx, 'test/fixtures/real/pytorch', 'eager-step.pt.trace.json');
      // Item 6: the GPU process titled with Kineto's process_labels.
      const tracks = await frame.evaluate(() => (window as unknown as { __timeline: { state(): { model: { tracks: { name: string }[] } } } }).__timeline.state().model.tracks.map((t) => t.name));
      if (!tracks.includes('GPU 0: NVIDIA H200')) throw new Error(`no GPU process with its label: ${tracks.slice(0, 8).join(' | ')}`);
      // Item 8: the colour menu offers the trace's own fields, not the NPU trace's.
      const colours = await frame.locator('vscode-dropdown[aria-label="Colour by"] vscode-option').allTextContents();
      if (colours.join() !== 'colour: resource,colour: cat,colour: name,colour: cname') throw new Error(`colour menu: ${colours.join(', ')}`);
      // Item 5: a kernel's details give its time from the trace's start and as Kineto wrote it, its duration in µs.
      const kernel = await revealItem(frame, { name: 'Memcpy HtoD (Pageable -> Device)' });
      await frame.locator('#canvas').click({ position: { x: kernel.x, y: kernel.y } });
      await waitSelected(frame, (x) => x.i === kernel.i, 'a click on the copy');
      const start = frame.locator('#details tr', { hasText: /^start/ }).first();
      await start.filter({ hasText: /\+[\d.,]+ (µs|ms) · [\d,]+(\.\d+)? µs/ }).waitFor({ timeout: STEP_MS })
        .catch(async () => { throw new Error(`the copy's start reads "${await start.textContent().catch(() => '')}"`); });
      ctx.say(`    copy selected; ${(await start.textContent())?.replace(/\s+/g, ' ')}`);
      // Item 11: the Summary tab has the GPU streams and the top kernels.
      await frame.locator('#summaryTab').click();
      await frame.locator('#summaryView section[data-table="streams"] tbody tr').first().waitFor({ timeout: STEP_MS });
      await frame.locator('#summaryView section[data-table="kernels"] tbody tr').first().waitFor({ timeout: STEP_MS });
      ctx.say('    Summary: GPU streams and top kernels');
      await ctx.shoot(page, 'pytorch-summary');
      // Item 10: an NNAPI slice's details name the process a pid, not a tenant.
      await quickOpen(page, 'nnapi-mobilenet.systrace');
      await palette(page, 'NPU Trace: Show Timeline');
      // Its page is the timeline frame that is not the PyTorch one (which tab group has the focus then varies).
      let nn: Frame | undefined;
      const deadline = Date.now() + STEP_MS;
      while (!nn && Date.now() < deadline) {
        for (const f of page.frames()) if (f !== frame && await f.locator('#canvas').count().catch(() => 0)) nn = f;
        if (!nn) await page.waitForEvent('frameattached', { timeout: 1000 }).catch(() => undefined);
      }
      if (!nn) throw new Error('no timeline page for the NNAPI trace');
      await painted(nn);
      const slice = await revealItem(nn, { nth: 0 });
      await nn.locator('#canvas').click({ position: { x: slice.x, y: slice.y } });
      await waitSelected(nn, (x) => x.i === slice.i, 'a click on an NNAPI slice');
      const keys = await nn.locator('#details table').first().locator('th').allTextContents();
      if (!keys.includes('pid') || keys.includes('tenant_id')) throw new Error(`NNAPI details: ${keys.join(', ')}`);
      ctx.say(`    NNAPI details: ${keys.join(', ')}`);
    },
  },
  {
    name: 'A kernel-profiler buffer\'s report opens read-only beside it, and closes without asking to save an Untitled file',
    async run(page: Page, ctx: UiContext): Promise<void> {
      await quickOpen(page, 'spec.kprof.npy');
      await painted(await timelineFrame(page));
      await palette(page, 'NPU Trace: Profiler Buffer Report');
      const tab = page.locator('.tabs-container .tab.active', { hasText: 'spec.kprof.npy - report.txt' });
      await tab.waitFor({ timeout: STEP_MS });
      await page.locator('.monaco-editor .view-line', { hasText: 'spec.kprof.npy' }).first().waitFor({ timeout: STEP_MS });
      if (await page.locator('.tabs-container .tab.dirty').count()) throw new Error('the report opened as an unsaved (dirty) document');
      await ctx.shoot(page, 'kprof-report');
      await pressUntil(page, 'Control+W', tab, 'detached', 'closing the report');
      if (await page.locator('.monaco-dialog-box').count()) throw new Error('closing the report asked to save it');
      ctx.say('    report shown read-only; closed without a save prompt');
    },
  },
  {
    name: 'Summary for every format: Show Summary on an NNAPI systrace gives its runs and layer × phase times; on an InferScope trace, its analysis',
    async run(page: Page, ctx: UiContext): Promise<void> {
      const seen = new Set<Frame>();
      for (const [file, table] of [['nnapi-mobilenet.systrace', 'runs'], ['llm-requests.inferscope.json', 'categories']] as const) {
        await quickOpen(page, file);
        await palette(page, 'NPU Trace: Show Summary');
        await page.locator('.tabs-container .tab.active', { hasText: `Timeline: ${file}` }).waitFor({ timeout: STEP_MS });
        let frame: Frame | undefined;
        const deadline = Date.now() + STEP_MS;
        while (!frame && Date.now() < deadline) {
          for (const f of page.frames()) if (!seen.has(f) && await f.locator('#canvas').count().catch(() => 0)) frame = f;
          if (!frame) await page.waitForEvent('frameattached', { timeout: 1000 }).catch(() => undefined);
        }
        if (!frame) throw new Error(`no timeline page for ${file}`);
        seen.add(frame);
        const rows = frame.locator(`#summaryView section[data-table="${table}"] tbody tr`);
        await rows.first().waitFor({ timeout: STEP_MS })
          .catch(async () => { throw new Error(`${file}: no ${table} table; the Summary reads "${(await frame!.locator('#summaryView').textContent().catch(() => ''))?.slice(0, 200)}"`); });
        ctx.say(`    ${file}: Summary with its ${table} table (${await rows.count()} rows)`);
      }
      await ctx.shoot(page, 'summary-inferscope');
    },
  },
];
