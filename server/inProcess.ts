import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures } from 'vscode-languageserver/browser';
import { startServer } from './main';

/** One end of a browser message channel: a worker's own scope, a Worker, or a MessagePort. */
export type ServerPort = ConstructorParameters<typeof BrowserMessageReader>[0];

/** The language server speaking LSP over `port` (a web worker's scope, or a channel in the web extension host itself). */
export function startServerOnPort(port: ServerPort): void {
  startServer(createConnection(ProposedFeatures.all, new BrowserMessageReader(port), new BrowserMessageWriter(port)));
}
