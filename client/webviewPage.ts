/**
 * The one HTML shell of every webview page (the timeline, the CMDQ graph, the Diff view, Compare
 * Timelines). Pure (no vscode import), so the browser tests load exactly the pages shipped. The
 * Content Security Policy lets only our own script run (by nonce); file data never appears in the
 * HTML: it arrives as a message and is set as text or drawn on a canvas.
 */
export interface ShellOptions {
  /** `webview.cspSource`: the origin our assets are served from. */
  cspSource: string;
  scriptUri: string;
  nonce: string;
  title: string;
  /** Our stylesheet, when the page has one. */
  styleUri?: string;
  /** The page's own rules, inline. */
  style?: string;
  /** The page's elements, before the script. */
  body: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
// Linear: one class of single characters.
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export function webviewPage(o: ShellOptions): string {
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${o.nonce}'`,
    // Scripts need the nonce; styles may be inline because the toolkit (FAST) adds empty <style>
    // elements for its design tokens and cannot carry a nonce. File text is never HTML, so no
    // string of a file can become a style either.
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
${o.styleUri ? `<link rel="stylesheet" href="${escapeHtml(o.styleUri)}">\n` : ''}<title>${escapeHtml(o.title)}</title>
${o.style ? `<style>\n${o.style}\n</style>\n` : ''}</head>
<body>
${o.body}
<script nonce="${escapeHtml(o.nonce)}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>`;
}

/** A page that runs nothing, for a panel that only says something (`text` is HTML already escaped). */
export function staticPage(html: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body>${html}</body></html>`;
}
