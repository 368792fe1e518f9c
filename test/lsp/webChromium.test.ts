import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { launchChromium } from '../webview/page';
import { LspClient, WAIT_MS } from './lspClient';
import { WEB_SERVER } from './webWorkerHost';

const FAULTY = readFileSync(resolve(__dirname, '../../examples/faulty.trace.jsonl'), 'utf8');

// Runs in the page, given as a string: tsx would wrap its functions in a helper the page lacks.
const SPEAK = `async (text, waitMs) => {
  const w = new Worker('/server.js');
  const failed = new Promise((_, reject) => { w.onerror = (e) => reject(new Error('worker error: ' + e.message)); });
  const first = new Promise((r) => w.addEventListener('message', (e) => r(e.data), { once: true }));
  const ready = await Promise.race([first, failed]);
  const pending = new Map();
  let diagnostics;
  const published = new Promise((r) => { diagnostics = r; });
  w.addEventListener('message', (e) => {
    const m = e.data;
    if (m.method === 'textDocument/publishDiagnostics') diagnostics(m.params.diagnostics);
    else if (m.method === 'workspace/configuration') w.postMessage({ jsonrpc: '2.0', id: m.id, result: m.params.items.map(() => ({})) });
    else if (m.id !== undefined && !m.method) pending.get(m.id)?.(m.result);
  });
  const request = (id, method, params) => new Promise((r) => { pending.set(id, r); w.postMessage({ jsonrpc: '2.0', id, method, params }); });
  await Promise.race([request(1, 'initialize', { processId: null, rootUri: null, capabilities: { workspace: { configuration: true } } }), failed]);
  w.postMessage({ jsonrpc: '2.0', method: 'initialized', params: {} });
  w.postMessage({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///faulty.trace.jsonl', languageId: 'npu-trace', version: 1, text } } });
  const diags = await Promise.race([published, failed, new Promise((_, reject) => setTimeout(() => reject(new Error('no diagnostics within ' + waitMs + ' ms')), waitMs))]);
  w.terminate();
  return { ready, diags: JSON.stringify(diags) };
}`;

// dist/web/server.js in a real browser's web worker (Chromium): no Node global at all, unlike the
// worker thread of webServer.test.ts. The page speaks JSON-RPC to it with postMessage, as
// vscode-languageclient/browser does.
describe('the browser build of the language server in a Chromium web worker', () => {
  let browser: Browser;
  before(async () => { browser = await launchChromium(); });
  after(async () => { await browser?.close(); });

  it('starts, says ready, and publishes the faulty example\'s diagnostics as the desktop server does', async () => {
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.route('http://npu.test/**', (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/server.js') return route.fulfill({ contentType: 'text/javascript', body: readFileSync(WEB_SERVER, 'utf8') });
      return route.fulfill({ contentType: 'text/html', body: '<!DOCTYPE html><title>web server</title>' });
    });
    await page.goto('http://npu.test/');
    const got = await page.evaluate(`(${SPEAK})(${JSON.stringify(FAULTY)}, ${WAIT_MS})`) as { ready: unknown; diags: string };
    assert.deepEqual(errors, []);
    assert.deepEqual(got.ready, { npuTraceServer: 'ready' });
    const diags = JSON.parse(got.diags) as Diagnostic[];
    assert.ok(diags.length > 0);
    const desktop = await LspClient.start();
    try {
      assert.deepEqual(diags, await desktop.open('file:///faulty.trace.jsonl', 'npu-trace', FAULTY));
    } finally {
      await desktop.stop();
    }
  });
});
