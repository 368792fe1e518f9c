/**
 * The timeline page's HTML. Pure (no vscode import) so the rendering tests load exactly this page.
 * The CSP allows only our own script (by nonce) and stylesheet; trace data never appears in the
 * HTML, it arrives later as a message and is shown as text.
 */
export interface PageOptions {
  /** `webview.cspSource`: the origin our assets are served from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
  title: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export function timelinePage(o: PageOptions): string {
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${o.nonce}'`,
    // Scripts need the nonce; styles may be inline because the toolkit (FAST) adds empty <style>
    // elements for its design tokens and cannot carry a nonce. Trace text is never HTML, so no
    // trace string can become a style either.
    `style-src ${o.cspSource} 'unsafe-inline'`,
    `font-src ${o.cspSource}`,
    `img-src ${o.cspSource} data:`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(o.styleUri)}">
<title>${escapeHtml(o.title)}</title>
</head>
<body>
<div id="toolbar" role="toolbar" aria-label="Timeline"></div>
<div id="main">
<canvas id="canvas" tabindex="0" aria-label="Timeline. Wheel zooms at the pointer, drag pans, Shift+drag or drag on the ruler selects a range, W/S zoom, A/D pan, F fits all, / searches."></canvas>
<div id="overlay">Loading…</div>
<div id="summary" hidden></div>
<div id="summaryView" hidden role="region" aria-label="Summary"></div>
</div>
<aside id="details" hidden aria-label="Selected event"></aside>
<div id="tooltip" hidden role="tooltip"></div>
<script nonce="${escapeHtml(o.nonce)}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>`;
}
