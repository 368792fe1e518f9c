/**
 * Runs `f` on a later turn of the event loop. Node has setImmediate; a web worker does not, and
 * there vscode-jsonrpc itself queues its message handling with setTimeout(0): the same timer keeps
 * the server's "a whole turn without a change" rule (main.ts) in step with how messages arrive.
 */
export const nextTurn: (f: () => void) => void = typeof setImmediate === 'function'
  ? (f) => { setImmediate(f); }
  : (f) => { setTimeout(f, 0); };
