/**
 * When the page's script began to run: main.ts imports this first, so it is evaluated before any
 * other module. The bench tells the page's document, its script and its `ready` apart with it.
 */
export const scriptStarted = performance.now();
