/** The timeline page's elements and its channel to the extension host. */
import type { WebviewMessage } from '../protocol/timeline';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };

/** What the page keeps across a hide and show of its panel (VS Code's webview state). */
export interface Saved {
  uri: string;
  view?: [number, number];
  scrollY?: number;
}

export const vscode = acquireVsCodeApi();
export const send = (m: WebviewMessage): void => vscode.postMessage(m);
const $ = (id: string) => document.getElementById(id)!;

export const canvas = $('canvas') as HTMLCanvasElement;
export const g = canvas.getContext('2d', { alpha: false })!;
export const toolbarBox = $('toolbar');
/** The selected item's details. */
export const details = $('details');
/** The Shift+drag range's box: its quick counts and the way to its Summary tables. */
export const rangeBox = $('summary');
/** Progress and errors over the canvas. */
export const overlay = $('overlay');
/** The Summary tab (a kernel-profiler buffer's pane in its place). */
export const summaryPane = $('summaryView');
export const fontFamily = getComputedStyle(document.body).fontFamily || 'sans-serif';
