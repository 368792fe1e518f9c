import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { after, before } from 'node:test';
import {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection,
  type Diagnostic, type PublishDiagnosticsParams, type TextDocumentContentChangeEvent, type Position,
} from 'vscode-languageserver-protocol/node';
import { programEnv } from '../childEnv';

const SERVER = resolve(__dirname, '../../dist/server.js');

interface Waiter {
  uri: string;
  version: number | undefined;
  resolve: (d: Diagnostic[]) => void;
}

/** How long a test waits for an awaited publish before it fails (a skipped publish must not hang CI). */
export const WAIT_MS = Number(process.env.NPU_LSP_WAIT_MS ?? 60_000);

/**
 * Starts the bundled language server over stdio and speaks LSP to it, as an editor would.
 * Diagnostics are awaited by document version, never by sleeping.
 */
export class LspClient {
  private readonly latest = new Map<string, PublishDiagnosticsParams>();
  private waiters: Waiter[] = [];
  private readonly versions = new Map<string, number>();
  private readonly counts = new Map<string, number>();
  /** What the server gets when it asks for `npuTrace.diagnostics` settings. */
  settings: unknown = {};
  readonly stderr: string[] = [];

  private constructor(readonly conn: ProtocolConnection, readonly proc: ChildProcess) {
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.latest.set(p.uri, p);
      this.counts.set(p.uri, (this.counts.get(p.uri) ?? 0) + 1);
      const ready = this.waiters.filter((w) => w.uri === p.uri && (w.version === undefined || (p.version ?? 0) >= w.version));
      this.waiters = this.waiters.filter((w) => !ready.includes(w));
      for (const w of ready) w.resolve(p.diagnostics);
    });
    conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => this.settings));
    conn.onRequest('client/registerCapability', () => null);
    conn.onRequest('window/workDoneProgress/create', () => null);
  }

  /**
   * `execArgv` goes to node before the server (e.g. `--require` of a test preload); `server` is
   * another build of the server (the benchmark compares with an older one).
   */
  static async start(opts: StartOptions = {}): Promise<LspClient> {
    // The server alone, without the test runner's loader: the hostile tests measure its peak RSS.
    const proc = spawn(process.execPath, [...(opts.execArgv ?? []), opts.server ?? SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env: programEnv() });
    const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const client = new LspClient(conn, proc);
    proc.stderr!.on('data', (d: Buffer) => client.stderr.push(d.toString()));
    conn.listen();
    // A server that dies at start (a bad build, a preload that throws) fails the test at once, with its stderr.
    const exited = new Promise<never>((_, reject) => proc.once('exit', (code, signal) => reject(new Error(`the language server exited (${code ?? signal}) before it answered initialize: ${client.stderr.join('')}`))));
    await Promise.race([client.request('initialize', {
      processId: process.pid, rootUri: null, workspaceFolders: null,
      capabilities: { workspace: { configuration: true }, textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] } } },
    }), exited]);
    await conn.sendNotification('initialized', {});
    return client;
  }

  /** Opens a document and resolves with its first diagnostics. */
  open(uri: string, languageId: string, text: string, timeoutMs = WAIT_MS): Promise<Diagnostic[]> {
    this.versions.set(uri, 1);
    const p = this.diagnostics(uri, 1, timeoutMs);
    void this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    return p;
  }

  /** Sends incremental changes and resolves with the diagnostics of the new version. */
  change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<Diagnostic[]> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    const p = this.diagnostics(uri, version);
    void this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
    return p;
  }

  /** Sends incremental changes without waiting for anything (an editor's typing); returns the new version. */
  notifyChange(uri: string, changes: TextDocumentContentChangeEvent[]): number {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    void this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
    return version;
  }

  /** How many times diagnostics were published for `uri` so far. */
  publishCount(uri: string): number {
    return this.counts.get(uri) ?? 0;
  }

  close(uri: string): void {
    void this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** Resolves with the diagnostics published for `version` (or the next ones when undefined). */
  diagnostics(uri: string, version?: number, timeoutMs = WAIT_MS): Promise<Diagnostic[]> {
    const last = this.latest.get(uri);
    if (last && version !== undefined && (last.version ?? 0) >= version) return Promise.resolve(last.diagnostics);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { uri, version, resolve: (d) => { clearTimeout(timer); resolve(d); } };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no diagnostics for ${uri}${version === undefined ? '' : ` version ${version}`} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Sends a request; fails after `timeoutMs` rather than waiting for an answer that never comes. */
  request<R>(method: string, params: unknown, timeoutMs = WAIT_MS): Promise<R> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${method}: no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([this.conn.sendRequest(method, params) as Promise<R>, timeout]).finally(() => clearTimeout(timer));
  }

  at(uri: string, position: Position): { textDocument: { uri: string }; position: Position } {
    return { textDocument: { uri }, position };
  }

  /**
   * Shuts the server down as an editor does; one that does not answer within `timeoutMs` (stuck in
   * a check a hostile test caused) is killed.
   */
  async stop(timeoutMs = 5000): Promise<void> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) {
      const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
      let answered = true;
      try {
        await this.request('shutdown', undefined, timeoutMs);
        await this.conn.sendNotification('exit');
      } catch {
        answered = false;
      }
      const timer = setTimeout(() => this.proc.kill('SIGKILL'), answered ? timeoutMs : 0);
      await exited;
      clearTimeout(timer);
    }
    this.conn.dispose();
  }
}

export interface StartOptions {
  execArgv?: string[];
  server?: string;
}

/**
 * One language server for the enclosing `describe` (or the file, called at its top level): started
 * before the tests, stopped after them. The client returned stands for it in the tests and in the
 * hooks registered after this call (a `before` that opens a document), not before the server starts.
 */
export function serverPerSuite(opts: StartOptions = {}): LspClient {
  let client: LspClient | undefined;
  before(async () => {
    client = await LspClient.start(opts);
  });
  after(async () => {
    await client?.stop();
  });
  const started = (): LspClient => {
    if (!client) throw new Error('the suite\'s language server is used before it started (serverPerSuite starts it in `before`)');
    return client;
  };
  // Reads and writes (`c.settings = …`) go to the started client.
  return new Proxy({} as LspClient, {
    get(_, key) {
      const v: unknown = Reflect.get(started(), key);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(client) : v;
    },
    set: (_, key, value) => Reflect.set(started(), key, value),
  });
}
