/**
 * Loads the built timeline page (dist/webview.js + css, the exact HTML the extension serves) in
 * headless Chromium, with a stand-in for acquireVsCodeApi that records what the page sends.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { timelinePage } from '../../client/timeline/html';
import type { TimelineModel } from '../../core/timeline/model';
import type { HostMessage, WebviewMessage } from '../../protocol/timeline';
import { chromiumPath } from './chromium';

/** The repository root, from source (tsx) or from a bundle in out/ (the bench). */
export function repoRoot(): string {
  for (let d = __dirname; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json')) && existsSync(join(d, 'webview'))) return d;
    if (dirname(d) === d) return resolve(__dirname, '../..');
  }
}

const DIST = join(repoRoot(), 'dist/webview');

/**
 * The one limit of every wait of a page test (an element, a message, a frame), Playwright's
 * default for the page's actions too: generous, as a loaded CI machine (load 5–6) needs. Tests
 * wait for the condition they need, never for a time.
 */
export const UI_WAIT_MS = Number(process.env.NPU_UI_WAIT_MS ?? 60_000);

/** One canvas 2D call the page made, as recorded by the wrapper installed before the app loads. */
export interface DrawCall {
  op: 'fillRect' | 'strokeRect' | 'rect' | 'fill' | 'fillText';
  /** rect arguments (x, y, w, h) in CSS pixels of the canvas; fillText: x, y, 0, 0. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** fillStyle (strokeStyle for strokeRect) at the time of the call. */
  style: string;
  /** The requestAnimationFrame time of the frame that made it. */
  frame: number;
}

export interface TimelinePage {
  browser: Browser;
  page: Page;
  /** Canvas calls of the last frame drawn since the previous call of drawCalls() (then forgotten); needs `recordDraws`. */
  drawCalls(): Promise<DrawCall[]>;
  /** Messages the page sent to the "host", in order. */
  sent(): Promise<WebviewMessage[]>;
  /** Sends a host message (typed arrays included) to the page. */
  post(m: HostMessage): Promise<void>;
  /** Console errors, CSP violations and uncaught exceptions of the page. */
  errors: string[];
  /** Resolves after the next frame has been drawn. */
  frame(): Promise<void>;
  close(): Promise<void>;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] });
}

/**
 * A fresh page (its own browser context: nothing shared with another page). With `browser`, the page
 * lives in that browser and close() closes only its context; otherwise it launches its own browser.
 * `dist` replaces the directory of webview.js (the bench loads a baseline build of the page).
 * `recordDraws` wraps the canvas 2D calls before the app loads, for drawCalls() (tests; it costs time and memory).
 * `bypassCSP` lets the bench fetch a model's columns as binary (bench/timelineDelivery.ts); tests keep the page's CSP.
 */
export async function openTimelinePage(opts: { width?: number; height?: number; theme?: 'dark' | 'light' | 'hc'; browser?: Browser; dist?: string; recordDraws?: boolean; bypassCSP?: boolean } = {}): Promise<TimelinePage> {
  const browser = opts.browser ?? await launchChromium();
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1200, height: opts.height ?? 700 }, bypassCSP: opts.bypassCSP ?? false });
  context.setDefaultTimeout(UI_WAIT_MS);
  const page = await context.newPage();
  const dir = mkdtempSync(join(tmpdir(), 'timeline-page-'));
  const html = timelinePage({
    cspSource: 'file:', nonce: 'testnonce123', title: 'test',
    scriptUri: pathToFileURL(join(opts.dist ?? DIST, 'webview.js')).href, styleUri: pathToFileURL(join(DIST, 'webview.css')).href,
  });
  // VS Code puts the theme's colours on the page as CSS variables; these are some of its dark/light/high-contrast ones.
  const vars = THEMES[opts.theme ?? 'dark'];
  writeFileSync(join(dir, 'index.html'), html.replace('<body>', `<body class="vscode-${opts.theme ?? 'dark'}" style="${vars}">`));
  const errors: string[] = [];
  page.on('console', (m) => {
    // The tests' own pixel reads trigger Chromium's getImageData advice; that is not the page's fault.
    if ((m.type() === 'error' || m.type() === 'warning') && !m.text().includes('willReadFrequently')) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  // Scripts go in as strings: tsx would wrap named functions in a helper the page does not have.
  await page.addInitScript(`
    window.__sent = [];
    let state;
    window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__sent.push(m), getState: () => state, setState: (s) => (state = s) });
    window.__decode = function decode(v) {
      if (Array.isArray(v)) return v.map(decode);
      if (v && typeof v === 'object') {
        if (typeof v.__typed === 'string') {
          const bin = atob(v.b64);
          const bytes = new Uint8Array(bin.length);
          for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
          return new globalThis[v.__typed](bytes.buffer);
        }
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]));
      }
      return v;
    };
  `);
  if (opts.recordDraws) await page.addInitScript(`
    // Counts what is really drawn, from outside the renderer: every canvas 2D call, tagged with its frame.
    window.__draw = { calls: [], frame: 0 };
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (cb) => raf((t) => { window.__draw.frame = t; cb(t); });
    const C = CanvasRenderingContext2D.prototype;
    for (const op of ['fillRect', 'strokeRect', 'rect', 'fill', 'fillText']) {
      const orig = C[op];
      C[op] = function (...a) {
        const text = op === 'fillText';
        window.__draw.calls.push({ op, x: text ? a[1] : a[0] ?? 0, y: text ? a[2] : a[1] ?? 0, w: text ? 0 : a[2] ?? 0, h: text ? 0 : a[3] ?? 0,
          style: String(op === 'strokeRect' ? this.strokeStyle : this.fillStyle), frame: window.__draw.frame });
        return orig.apply(this, a);
      };
    }
  `);
  await page.goto(pathToFileURL(join(dir, 'index.html')).href);
  await page.waitForFunction('window.__sent.some((m) => m.type === "ready")')
    .catch((e: Error) => { throw new Error(`${e.message}\npage errors: ${errors.join('\n')}`); });
  return {
    browser, page, errors,
    drawCalls: () => page.evaluate(`(() => {
      const calls = window.__draw.calls;
      window.__draw.calls = [];
      const last = calls.length ? calls[calls.length - 1].frame : 0;
      return calls.filter((c) => c.frame === last);
    })()`) as Promise<DrawCall[]>,
    sent: () => page.evaluate('window.__sent') as Promise<WebviewMessage[]>,
    post: async (m) => {
      // An anonymous arrow: tsx leaves it alone.
      await page.evaluate((enc) => {
        const w = window as unknown as { __decode(v: unknown): unknown };
        window.postMessage(w.__decode(enc), '*');
      }, encode(m) as never);
    },
    frame: () => page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))') as Promise<void>,
    close: () => (opts.browser ? context.close() : browser.close()),
  };
}

/** Typed arrays cannot cross page.evaluate as such: send them as base64 and rebuild them in the page. */
export function encode(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) {
    const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    return { __typed: v.constructor.name, b64: b.toString('base64') };
  }
  if (Array.isArray(v)) return v.map(encode);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, encode(x)]));
  return v;
}

export function modelMessage(model: TimelineModel, fileName = 'test.trace.jsonl'): HostMessage {
  return { type: 'model', uri: `file:///${fileName}`, fileName, model, complete: true };
}

const THEMES = {
  dark: '--vscode-editor-background:#1e1e1e;--vscode-editor-foreground:#cccccc;--vscode-descriptionForeground:#ccccccb3;--vscode-sideBar-background:#252526;--vscode-focusBorder:#007fd4;--vscode-charts-red:#f14c4c;--vscode-charts-blue:#3794ff;--vscode-charts-yellow:#cca700;--vscode-charts-orange:#d18616;--vscode-charts-green:#89d185;--vscode-charts-purple:#b180d7;--vscode-panel-border:#80808059;--vscode-font-family:sans-serif;--vscode-font-size:13px;--vscode-editor-font-family:monospace;--vscode-textLink-foreground:#3794ff;--vscode-errorForeground:#f48771',
  light: '--vscode-editor-background:#ffffff;--vscode-editor-foreground:#000000;--vscode-descriptionForeground:#717171;--vscode-sideBar-background:#f3f3f3;--vscode-focusBorder:#0090f1;--vscode-charts-red:#e51400;--vscode-charts-blue:#1a85ff;--vscode-charts-yellow:#bf8803;--vscode-charts-orange:#d18616;--vscode-charts-green:#388a34;--vscode-charts-purple:#652d90;--vscode-panel-border:#80808059;--vscode-font-family:sans-serif;--vscode-font-size:13px;--vscode-editor-font-family:monospace;--vscode-textLink-foreground:#006ab1;--vscode-errorForeground:#a1260d',
  hc: '--vscode-editor-background:#000000;--vscode-editor-foreground:#ffffff;--vscode-descriptionForeground:#ffffff;--vscode-sideBar-background:#000000;--vscode-focusBorder:#f38518;--vscode-contrastBorder:#6fc3df;--vscode-charts-red:#f14c4c;--vscode-charts-blue:#3794ff;--vscode-charts-yellow:#ffff00;--vscode-charts-orange:#d18616;--vscode-charts-green:#89d185;--vscode-charts-purple:#b180d7;--vscode-font-family:sans-serif;--vscode-font-size:13px;--vscode-editor-font-family:monospace;--vscode-textLink-foreground:#3794ff;--vscode-errorForeground:#f48771',
};

/** Picks an attribute in the Filter by dropdown and, unless undefined, a value in Filter value, as a user does. */
export async function filterBy(q: TimelinePage, attr: string, value: string | undefined): Promise<void> {
  await q.page.evaluate((attr) => {
    const a = document.querySelector('vscode-dropdown[aria-label="Filter by"]') as HTMLElement & { value: string };
    a.value = attr;
    a.dispatchEvent(new Event('change'));
  }, attr);
  await q.frame();
  if (value === undefined) return;
  await q.page.evaluate((value) => {
    const v = document.querySelector('vscode-dropdown[aria-label="Filter value"]') as HTMLElement & { value: string };
    v.value = value;
    v.dispatchEvent(new Event('change'));
  }, value);
  await q.frame();
}

/** Waits until the page has sent a message of `type`; resolves with the last one sent. */
export async function sentOfType<T extends WebviewMessage['type']>(q: TimelinePage, type: T): Promise<Extract<WebviewMessage, { type: T }>> {
  await q.page.waitForFunction((type) => (window as unknown as { __sent: { type: string }[] }).__sent.some((m) => m.type === type), type);
  return (await q.sent()).filter((m): m is Extract<WebviewMessage, { type: T }> => m.type === type).pop()!;
}

/**
 * Shift+drags across the canvas from `x0` to `x1` (CSS pixels from its left) at height `y`, as a
 * user selects a range, and resolves with the range the page holds then. The page's clock stands
 * still during the drag and runs `restMs` once the mouse is up: the page asks the host for a range
 * once the drag has rested 250 ms, and on a loaded machine the moves of a real-time drag come
 * further apart than that.
 */
export async function shiftDrag(q: TimelinePage, x0: number, x1: number, y: number, restMs = 300): Promise<[number, number]> {
  const { page } = q;
  const box = (await page.locator('#canvas').boundingBox())!;
  await page.clock.install();
  // Paused a minute ahead of the page's time: a point still to come, however slowly this call comes.
  await page.clock.pauseAt(Date.now() + 60_000);
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + x0, box.y + y);
  await page.mouse.down();
  await page.mouse.move(box.x + x1, box.y + y, { steps: 5 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  const range = await page.evaluate('window.__timeline.state().range') as [number, number];
  await page.clock.runFor(restMs);
  await page.clock.resume();
  return range;
}
