import type { BrowserMessageReader } from 'vscode-languageserver/browser';

/** What the browser LanguageClient talks to: a Worker, or one end of a MessageChannel. */
export type ServerPort = ConstructorParameters<typeof BrowserMessageReader>[0];

/** The few members of a DOM Worker used here (the client tsconfig has no DOM types). */
interface WebWorker {
  addEventListener(type: 'message' | 'error', f: () => void): void;
  removeEventListener(type: 'message' | 'error', f: () => void): void;
  terminate(): void;
}
type WorkerCtor = new (url: string, options?: { name?: string }) => WebWorker;
interface Channel { port1: ServerPort & { close(): void }; port2: ServerPort & { close(): void } }
type ChannelCtor = new () => Channel;

/** How long the worker has to say it runs before the server is started in-process instead. */
export const WORKER_READY_MS = 10_000;

export interface ServerTransport { port: ServerPort; where: 'worker' | 'in-process'; dispose(): void }

/**
 * Starts the language server in this extension host, speaking over `port` (server/inProcess.ts's
 * startServerOnPort). Passed in by the bundle's entry (hosts/webExtension.ts), so the client does not
 * import the server.
 */
export type StartInProcess = (port: ServerPort) => void;

/**
 * Starts the language server in a web worker (`serverUrl`: dist/web/server.js), or in this extension host when
 * no worker can run. A worker counts as running once its first message arrives: server/browser.ts
 * posts one before it listens. An extension host without `Worker`, a constructor that throws, an
 * `error` event (the script could not be loaded, as in a browser VS Code whose extension files
 * are served by a remote such as code-server) or silence for WORKER_READY_MS all mean in-process.
 */
export async function startServerTransport(serverUrl: string, log: (line: string) => void, startInProcess: StartInProcess, readyMs = WORKER_READY_MS): Promise<ServerTransport> {
  const worker = await startWorker(serverUrl, log, readyMs);
  if (worker) return { port: worker as unknown as ServerPort, where: 'worker', dispose: () => worker.terminate() };
  const Channel = (globalThis as { MessageChannel?: ChannelCtor }).MessageChannel;
  if (!Channel) throw new Error('neither Worker nor MessageChannel exists in this extension host');
  const { port1, port2 } = new Channel();
  startInProcess(port2);
  return { port: port1, where: 'in-process', dispose: () => { port1.close(); port2.close(); } };
}

async function startWorker(url: string, log: (line: string) => void, readyMs: number): Promise<WebWorker | undefined> {
  const Ctor = (globalThis as { Worker?: WorkerCtor }).Worker;
  if (typeof Ctor !== 'function') {
    log('no Worker in this extension host: the language server runs in-process');
    return undefined;
  }
  let worker: WebWorker;
  try {
    worker = new Ctor(url, { name: 'NPU Trace language server' });
  } catch (err) {
    log(`the language server worker could not be created (${err instanceof Error ? err.message : String(err)}): it runs in-process`);
    return undefined;
  }
  const ready = await new Promise<boolean | 'timeout'>((resolve) => {
    const done = (v: boolean | 'timeout') => {
      clearTimeout(timer);
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
      resolve(v);
    };
    const onMessage = () => done(true);
    const onError = () => done(false);
    const timer = setTimeout(() => done('timeout'), readyMs);
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
  });
  if (ready === true) return worker;
  worker.terminate();
  log(ready === 'timeout'
    ? `the language server worker did not start within ${readyMs / 1000} s: it runs in-process`
    : 'the language server worker failed to load: it runs in-process');
  return undefined;
}
