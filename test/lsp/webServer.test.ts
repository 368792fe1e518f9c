import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic, Hover, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { LspClient, WAIT_MS } from './lspClient';
import { startWebServer, WEB_SERVER } from './webWorkerHost';

const FAULTY = readFileSync(resolve(__dirname, '../../examples/faulty.trace.jsonl'), 'utf8');
const CMDQ = readFileSync(resolve(__dirname, '../../examples/golden.cmdq.json'), 'utf8');

describe('the browser build of the language server (dist/web/server.js) in a web-worker scope', () => {
  let web: Awaited<ReturnType<typeof startWebServer>>;
  const published = new Map<string, (d: Diagnostic[]) => void>();
  const diagnosticsOf = (uri: string) => new Promise<Diagnostic[]>((res, rej) => {
    const t = setTimeout(() => rej(new Error(`no diagnostics for ${uri} within ${WAIT_MS} ms`)), WAIT_MS);
    published.set(uri, (d) => { clearTimeout(t); res(d); });
  });

  before(async () => {
    assert.ok(existsSync(WEB_SERVER), `${WEB_SERVER} is missing: run \`npm run build\` first`);
    web = await startWebServer();
    web.conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => published.get(p.uri)?.(p.diagnostics));
  });
  after(async () => { await web?.stop(); });

  it('says it is ready before it speaks JSON-RPC', () => {
    assert.deepEqual(web.ready, { npuTraceServer: 'ready' });
  });

  it('publishes the same diagnostics for a faulty trace as the desktop server', async () => {
    const uri = 'file:///faulty.trace.jsonl';
    const p = diagnosticsOf(uri);
    await web.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'npu-trace', version: 1, text: FAULTY } });
    const diags = await p;
    assert.ok(diags.length > 0);
    const desktop = await LspClient.start();
    try {
      // Worker messages are structured clones (an undefined field stays); stdio carries JSON.
      assert.deepEqual(JSON.parse(JSON.stringify(diags)), await desktop.open(uri, 'npu-trace', FAULTY));
    } finally {
      await desktop.stop();
    }
  });

  it('answers a hover and checks a CMDQ (ajv validators bundled for the browser)', async () => {
    const hover = await web.conn.sendRequest('textDocument/hover', { textDocument: { uri: 'file:///faulty.trace.jsonl' }, position: { line: 1, character: 3 } }) as Hover | null;
    assert.ok(hover, 'a hover on an event');
    const uri = 'file:///golden.cmdq.json';
    const p = diagnosticsOf(uri);
    await web.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'cmdq', version: 1, text: CMDQ } });
    assert.deepEqual(await p, []);
    const broken = 'file:///broken.cmdq.json';
    const q = diagnosticsOf(broken);
    await web.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: broken, languageId: 'cmdq', version: 1, text: CMDQ.replace('"qbits": 8', '"qbits": 3') } });
    assert.ok((await q).length > 0);
  });
});
