import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  AbstractMessageReader, AbstractMessageWriter, createProtocolConnection, type DataCallback, type Disposable,
  type Message, type MessageReader, type MessageWriter, type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';

export const WEB_SERVER = resolve(__dirname, '../../dist/web/server.js');

// A web worker's scope, as far as dist/web/server.js uses it: postMessage, onmessage and
// addEventListener; no setImmediate, and the bundle runs as a plain script (no require, no module).
const SHIM = `
const { parentPort, workerData } = require('node:worker_threads');
delete globalThis.setImmediate;
delete globalThis.clearImmediate;
globalThis.self = globalThis;
globalThis.postMessage = (m) => parentPort.postMessage(m);
globalThis.addEventListener = () => {};
Object.defineProperty(globalThis, 'onmessage', { set(f) { parentPort.on('message', (data) => f({ data })); } });
new Function(workerData.code)();
`;

class WorkerReader extends AbstractMessageReader implements MessageReader {
  constructor(private readonly worker: Worker) { super(); }
  listen(callback: DataCallback): Disposable {
    const f = (m: Message) => callback(m);
    this.worker.on('message', f);
    return { dispose: () => { this.worker.off('message', f); } };
  }
}

class WorkerWriter extends AbstractMessageWriter implements MessageWriter {
  constructor(private readonly worker: Worker) { super(); }
  async write(msg: Message): Promise<void> { this.worker.postMessage(msg); }
  end(): void {}
}

/**
 * Runs the browser build of the language server in a worker thread dressed as a web worker and
 * speaks LSP to it over messages, as client/browser/ does. Resolves once its first message (the
 * "ready" that client/browser/serverTransport.ts waits for) came, with that message.
 */
export async function startWebServer(): Promise<{ conn: ProtocolConnection; ready: unknown; stop: () => Promise<void> }> {
  const worker = new Worker(SHIM, { eval: true, workerData: { code: readFileSync(WEB_SERVER, 'utf8') } });
  const ready = await new Promise<unknown>((res, rej) => {
    worker.once('message', res);
    worker.once('error', rej);
  });
  const conn = createProtocolConnection(new WorkerReader(worker), new WorkerWriter(worker));
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.listen();
  await conn.sendRequest('initialize', { processId: null, rootUri: null, workspaceFolders: null, capabilities: { workspace: { configuration: true } } });
  await conn.sendNotification('initialized', {});
  return { conn, ready, stop: async () => { conn.dispose(); await worker.terminate(); } };
}
