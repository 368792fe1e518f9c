import { webviewPage } from '../webviewPage';

/**
 * The pages of the comparison of two runs: the Diff view and Compare Timelines. Pure (no vscode
 * import). Only our script (by nonce) runs; every value from the files arrives as a message and is
 * set as text or drawn on a canvas, never as HTML.
 */
export interface ComparePageOptions {
  cspSource: string;
  scriptUri: string;
  nonce: string;
  title: string;
}

const BASE = `html, body { margin: 0; height: 100%; background: var(--vscode-editor-background, #1e1e1e); color: var(--vscode-editor-foreground, #ccc); font: 12px var(--vscode-font-family, sans-serif); }
[hidden] { display: none !important; }
.error { color: var(--vscode-errorForeground, #f48771); }`;

function page(o: ComparePageOptions, style: string, body: string): string {
  return webviewPage({ ...o, style: `${BASE}\n${style}`, body });
}

/** The Diff view: the runs, the kind selector, the table of groups, the run-level figures. */
export function diffPage(o: ComparePageOptions): string {
  return page(o, `body { overflow: auto; padding: 6px 10px; box-sizing: border-box; }
#head { display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; margin-bottom: 6px; }
#info { word-break: break-all; }
select { font: inherit; color: var(--vscode-dropdown-foreground, inherit); background: var(--vscode-dropdown-background, transparent); border: 1px solid var(--vscode-dropdown-border, #555); }
table { border-collapse: collapse; }
th { text-align: left; position: sticky; top: 0; background: var(--vscode-editor-background, #1e1e1e); }
th, td { padding: 2px 8px 2px 0; border-bottom: 1px solid var(--vscode-editorWidget-border, #444); white-space: nowrap; }
td.key { max-width: 28em; overflow: hidden; text-overflow: ellipsis; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
#groups tbody tr { cursor: pointer; }
#groups tbody tr:hover, #groups tbody tr:focus { background: var(--vscode-list-hoverBackground, #2a2d2e); outline: 1px solid var(--vscode-focusBorder, #007fd4); }
tr.reported.slower td:nth-child(2) { color: var(--vscode-charts-red, #f14c4c); font-weight: 600; }
tr.reported.faster td:nth-child(2) { color: var(--vscode-charts-green, #89d185); font-weight: 600; }
.bars { width: 110px; }
.bar { display: block; width: 100px; height: 5px; margin: 1px 0; background: var(--vscode-editorWidget-background, transparent); }
.fill { display: block; height: 100%; }
.fill.a { background: var(--vscode-charts-blue, #3794ff); }
.fill.b { background: var(--vscode-charts-purple, #b180d7); }
.fill.slower { background: var(--vscode-charts-red, #f14c4c); }
.fill.faster { background: var(--vscode-charts-green, #89d185); }
.bars .bar:only-child { height: 10px; }
#test, #metrics { margin-top: 8px; color: var(--vscode-descriptionForeground, #aaa); }`,
  `<div id="head"><label>Group by <select id="by" aria-label="Group by"><option value="">every kind</option></select></label><span id="info"></span></div>
<div id="status" role="status">Comparing…</div>
<table id="groups" aria-label="Groups compared: click one to open both timelines"></table>
<div id="test"></div>
<div id="metrics"></div>`);
}

/** Compare Timelines: both runs' canvases one above the other. */
export function compareTimelinesPage(o: ComparePageOptions): string {
  return page(o, `body { display: grid; grid-template-rows: auto auto 1fr auto 1fr; overflow: hidden; }
#bar { display: flex; gap: 8px; align-items: baseline; padding: 3px 8px; min-width: 0; }
#bar label { white-space: nowrap; }
#bar select { flex: 0 1 auto; min-width: 6em; }
#info, .label { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; min-width: 0; }
.label { padding: 3px 8px; }
select { font: inherit; max-width: 22em; color: var(--vscode-dropdown-foreground, inherit); background: var(--vscode-dropdown-background, transparent); border: 1px solid var(--vscode-dropdown-border, #555); }
.label { color: var(--vscode-descriptionForeground, #aaa); border-top: 1px solid var(--vscode-panel-border, #444); }
canvas { width: 100%; height: 100%; display: block; outline: none; min-height: 0; }
canvas:focus-visible { outline: 1px solid var(--vscode-focusBorder, #007fd4); outline-offset: -1px; }
#overlay { position: fixed; left: 50%; top: 40%; transform: translate(-50%, -50%); padding: 8px 14px; background: var(--vscode-editorWidget-background, #252526); border: 1px solid var(--vscode-widget-border, transparent); }
#tooltip { position: fixed; z-index: 10; max-width: 420px; padding: 6px 8px; pointer-events: none; background: var(--vscode-editorHoverWidget-background, #252526); color: var(--vscode-editorHoverWidget-foreground, inherit); border: 1px solid var(--vscode-editorHoverWidget-border, #888); }
.title { font-weight: bold; margin-bottom: 4px; word-break: break-all; }
.muted { color: var(--vscode-descriptionForeground, #aaa); }`,
  `<div id="bar"><label for="align">Align at</label><select id="align" disabled title="The point of both runs drawn at the same place: their starts, or a marker both runs have (M on a timeline focuses this list)"><option value="">Starts</option></select><span id="info">Loading…</span></div>
<div class="label" id="labelA">A</div>
<canvas id="canvasA" tabindex="0" aria-label="Run A's timeline. Wheel zooms, drag pans (both runs together), F fits."></canvas>
<div class="label" id="labelB">B</div>
<canvas id="canvasB" tabindex="0" aria-label="Run B's timeline. Wheel zooms, drag pans (both runs together), F fits."></canvas>
<div id="overlay">Loading…</div>
<div id="tooltip" hidden role="tooltip"></div>`);
}
