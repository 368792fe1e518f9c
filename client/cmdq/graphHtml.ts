import { webviewPage } from '../webviewPage';

/**
 * The graph page's HTML. Pure (no vscode import) so the browser test loads exactly this page.
 * The shell is every page's (`client/webviewPage.ts`): queue data arrives as a message and is drawn
 * on a canvas or set as text, never as HTML.
 */
export function graphPage(o: { cspSource: string; scriptUri: string; nonce: string; title: string }): string {
  return webviewPage({
    ...o,
    style: `html, body { margin: 0; height: 100%; overflow: hidden; background: var(--vscode-editor-background, #1e1e1e); color: var(--vscode-foreground, #ccc); font: 12px var(--vscode-font-family, sans-serif); }
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
#table .caption { padding: 4px 8px; }`,
    body: `<div id="info"><button id="mode" title="Switch between the dependency graph and the list-scheduled run per engine (S)">Schedule</button> <button id="layers" hidden title="Estimated vs measured per layer (L)">Layers</button> <span id="summary">Loading…</span></div>
<div id="selection">Click a node to select its entry; wheel zooms, drag pans, F fits.</div>
<div id="table" hidden></div>
<canvas id="canvas" tabindex="0" aria-label="CMDQ dependency graph: entries in columns by dependency depth, the critical path in red."></canvas>`,
  });
}
