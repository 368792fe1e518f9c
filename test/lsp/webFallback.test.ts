import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { BrowserMessageReader, BrowserMessageWriter, createProtocolConnection } from 'vscode-languageserver-protocol/browser';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { startServerTransport, type ServerTransport } from '../../client/browser/serverTransport';
import { startServerOnPort } from '../../server/inProcess';
import { WAIT_MS } from './lspClient';

const FAULTY = readFileSync(resolve(__dirname, '../../examples/faulty.trace.jsonl'), 'utf8');
const g = globalThis as { Worker?: unknown };

/** A stand-in for the DOM Worker: `behave` decides what it does once created. */
function fakeWorker(behave: 'throws' | 'error' | 'silent' | 'ready'): { terminated: () => boolean } {
  let terminated = false;
  g.Worker = class extends EventTarget {
    constructor() {
      super();
      if (behave === 'throws') throw new Error('Creating workers from remote extensions is currently not supported.');
      if (behave === 'error') setTimeout(() => this.dispatchEvent(new Event('error')), 0);
      if (behave === 'ready') setTimeout(() => this.dispatchEvent(new MessageEvent('message', { data: { npuTraceServer: 'ready' } })), 0);
    }
    terminate() { terminated = true; }
  };
  return { terminated: () => terminated };
}

/** Speaks LSP over the transport's port until the faulty trace's first diagnostics arrive. */
async function diagnosticsOver(t: ServerTransport): Promise<Diagnostic[]> {
  const conn = createProtocolConnection(new BrowserMessageReader(t.port), new BrowserMessageWriter(t.port));
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  conn.listen();
  try {
    await conn.sendRequest('initialize', { processId: null, rootUri: null, workspaceFolders: null, capabilities: { workspace: { configuration: true } } });
    await conn.sendNotification('initialized', {});
    const got = new Promise<Diagnostic[]>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no diagnostics within ${WAIT_MS} ms`)), WAIT_MS);
      conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => { clearTimeout(timer); res(p.diagnostics); });
    });
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: 'file:///faulty.trace.jsonl', languageId: 'npu-trace', version: 1, text: FAULTY } });
    return await got;
  } finally {
    conn.dispose();
  }
}

// client/browser/serverTransport.ts: a web worker when one runs, else the server in-process.
describe('the browser client\'s language server transport', () => {
  const lines: string[] = [];
  const log = (l: string) => lines.push(l);
  let t: ServerTransport | undefined;
  afterEach(() => {
    t?.dispose();
    t = undefined;
    delete g.Worker;
    lines.length = 0;
  });

  it('runs the server in-process when there is no Worker, and it publishes diagnostics there', async () => {
    delete g.Worker;
    t = await startServerTransport('https://x.invalid/dist/web/server.js', log, startServerOnPort);
    assert.equal(t.where, 'in-process');
    assert.match(lines.join('\n'), /no Worker/);
    const diags = await diagnosticsOver(t);
    assert.ok(diags.length > 0 && diags.every((d) => String(d.code).startsWith('trace.')));
  });

  it('falls back when the Worker constructor throws (a remote extension in code-server)', async () => {
    fakeWorker('throws');
    t = await startServerTransport('vscode-remote://h/dist/web/server.js', log, startServerOnPort);
    assert.equal(t.where, 'in-process');
    assert.match(lines.join('\n'), /could not be created \(Creating workers from remote extensions/);
  });

  it('falls back, terminating the worker, on an error event or silence', async () => {
    const errored = fakeWorker('error');
    t = await startServerTransport('u', log, startServerOnPort, 5_000);
    assert.equal(t.where, 'in-process');
    assert.ok(errored.terminated());
    t.dispose();
    const silent = fakeWorker('silent');
    t = await startServerTransport('u', log, startServerOnPort, 20);
    assert.equal(t.where, 'in-process');
    assert.ok(silent.terminated());
    assert.match(lines.join('\n'), /failed to load[\s\S]*did not start within 0.02 s/);
  });

  it('keeps a worker that says it is ready', async () => {
    const ready = fakeWorker('ready');
    t = await startServerTransport('u', log, startServerOnPort, 5_000);
    assert.equal(t.where, 'worker');
    assert.ok(!ready.terminated());
    t.dispose();
    assert.ok(ready.terminated());
    t = undefined;
  });
});
