import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures } from 'vscode-languageserver/browser';
import { startServer } from './main';

/**
 * The browser entry (dist/web/server.js), loaded as a web worker by client/browser/: messages come
 * and go on the worker's own scope. The server tsconfig has no DOM types, so the scope is typed
 * by what the reader accepts.
 */
type Port = ConstructorParameters<typeof BrowserMessageReader>[0];
const scope = globalThis as unknown as Port & { postMessage(m: unknown): void };
// The client waits for one message before it trusts the worker (client/browser/serverTransport.ts);
// it is read before the client's message reader exists, so it never reaches the JSON-RPC stream.
scope.postMessage({ npuTraceServer: 'ready' });
startServer(createConnection(ProposedFeatures.all, new BrowserMessageReader(scope), new BrowserMessageWriter(scope)));
