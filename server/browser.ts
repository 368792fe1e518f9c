import { startServerOnPort, type ServerPort } from './inProcess';

/**
 * The browser entry (dist/web/server.js), loaded as a web worker by client/browser/: messages come
 * and go on the worker's own scope. The server tsconfig has no DOM types, so the scope is typed
 * by what the reader accepts.
 */
const scope = globalThis as unknown as ServerPort & { postMessage(m: unknown): void };
// The client waits for one message before it trusts the worker (client/browser/serverTransport.ts);
// it is read before the client's message reader exists, so it never reaches the JSON-RPC stream.
scope.postMessage({ npuTraceServer: 'ready' });
startServerOnPort(scope);
