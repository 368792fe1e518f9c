import { escapeHtml } from '../timeline/html';

/**
 * The graph page's HTML. Pure (no vscode import) so the browser test loads exactly this page.
 * Only our script (by nonce) and stylesheet run; queue data arrives as a message and is drawn on
 * a canvas or set as text, never as HTML.
 */
export function graphPage(o: { cspSource: string; scriptUri: string; nonce: string; title: string }): string {
  const csp = ["default-src 'none'", `script-src 'nonce-${o.nonce}'`, `style-src ${o.cspSource} 'unsafe-inline'`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(o.title)}</title>
<style>
html, body { margin: 0; height: 100%; overflow: hidden; background: var(--vscode-editor-background, #1e1e1e); color: var(--vscode-foreground, #ccc); font: 12px var(--vscode-font-family, sans-serif); }
#mode, #layers { font: inherit; margin-right: 6px; }
#info, #selection { padding: 4px 8px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#selection { color: var(--vscode-descriptionForeground, #aaa); }
#canvas, #table { display: block; width: 100%; height: calc(100% - 48px); outline: none; }
#table { overflow: auto; }
#table[hidden], #layers[hidden], #canvas[hidden] { display: none; }
#table table { border-collapse: collapse; margin: 4px 8px; }
#table th { cursor: pointer; text-align: left; position: sticky; top: 0; background: var(--vscode-editor-background, #1e1e1e); }
#table th, #table td { padding: 2px 8px; border-bottom: 1px solid var(--vscode-editorWidget-border, #444); white-space: nowrap; }
#table td.num { text-align: right; font-variant-numeric: tabular-nums; }
#table .caption { padding: 4px 8px; }
</style>
</head>
<body>
<div id="info"><button id="mode" title="Switch between the dependency graph and the list-scheduled run per engine (S)">Schedule</button> <button id="layers" hidden title="Estimated vs measured per layer (L)">Layers</button> <span id="summary">Loading…</span></div>
<div id="selection">Click a node to select its entry; wheel zooms, drag pans, F fits.</div>
<div id="table" hidden></div>
<canvas id="canvas" tabindex="0" aria-label="CMDQ dependency graph: entries in columns by dependency depth, the critical path in red."></canvas>
<script nonce="${escapeHtml(o.nonce)}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>`;
}
