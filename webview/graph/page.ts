/** The CMDQ graph page's elements and its channel to the extension host. */
import type { GraphPageMessage } from '../../protocol/cmdqGraph';

declare function acquireVsCodeApi(): { postMessage(m: GraphPageMessage): void };

export const vscode = acquireVsCodeApi();
export const canvas = document.getElementById('canvas') as HTMLCanvasElement;
export const ctx = canvas.getContext('2d')!;
/** The one-line summary of the queue (or the host's error). */
export const info = document.getElementById('summary')!;
/** Graph ⇄ Schedule. */
export const modeButton = document.getElementById('mode') as HTMLButtonElement;
/** The selected entry's line. */
export const selection = document.getElementById('selection')!;
/** Layers ⇄ Graph: the Estimated vs measured table in the canvas's place. */
export const layersButton = document.getElementById('layers') as HTMLButtonElement;
export const tableBox = document.getElementById('table')!;
