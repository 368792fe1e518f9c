import { webviewPage } from '../webviewPage';

/**
 * The timeline page's HTML. Pure (no vscode import) so the rendering tests load exactly this page.
 * The shell (its CSP: only our script and stylesheet) is every page's (`client/webviewPage.ts`).
 */
export interface PageOptions {
  /** `webview.cspSource`: the origin our assets are served from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
  title: string;
}

export function timelinePage(o: PageOptions): string {
  return webviewPage({
    ...o,
    body: `<div id="toolbar" role="toolbar" aria-label="Timeline"></div>
<div id="main">
<canvas id="canvas" tabindex="0" aria-label="Timeline. Wheel zooms at the pointer, drag pans, Shift+drag or drag on the ruler selects a range, W/S zoom, A/D pan, F fits all, / searches."></canvas>
<div id="overlay">Loading…</div>
<div id="summary" hidden></div>
<div id="summaryView" hidden role="region" aria-label="Summary"></div>
</div>
<aside id="details" hidden aria-label="Selected event"></aside>
<div id="tooltip" hidden role="tooltip"></div>`,
  });
}
