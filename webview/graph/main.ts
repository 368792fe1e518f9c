// The CMDQ dependency graph page: entries by dependency depth (levels left to right, or top to
// bottom in a tall panel) on a 2D canvas, edges from each dep to what waits for it, colours by
// opcode, the critical path in red; or the list-scheduled run as rows per engine. This file wires
// the parts: the host's messages (messages.ts), the input (input.ts), resizes. Every name from the
// file is drawn with fillText or set as textContent, never parsed as HTML.
import type { GraphHostMessage } from '../../protocol/cmdqGraph';
import { requestDraw } from './draw';
import { attachInput } from './input';
import { NODE_H, NODE_W, nodeXY } from './layout';
import { onMessage } from './messages';
import { canvas, vscode } from './page';
import { page } from './state';

window.addEventListener('message', (ev: MessageEvent<GraphHostMessage>) => onMessage(ev.data));
attachInput();
new ResizeObserver(() => requestDraw()).observe(canvas);

// For the browser test: the page's own state and layout, to find where a node is drawn.
(window as unknown as { __graph: object }).__graph = {
  state: () => page.st,
  view: () => ({ scale: page.scale, ox: page.ox, oy: page.oy, mode: page.mode, orient: page.orient }),
  // Where entry i's box is drawn (CSS pixels), whichever way the levels run: for tests that click it.
  box: (i: number) => {
    const at = nodeXY(page.st!.layout, page.orient, i);
    return { x: page.ox + at.x * page.scale, y: page.oy + at.y * page.scale, w: NODE_W * page.scale, h: NODE_H * page.scale };
  },
};
vscode.postMessage({ type: 'ready' });
