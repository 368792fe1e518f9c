// The language server on documents of tens of millions of lines (issue #29: 100M newlines killed it
// with V8's "invalid array length" and then out of memory; 10M blank lines cost 717 MB). Past
// MAX_MODEL_LINES a document is kept whole, unsplit, with one diagnostic; an edit that brings it back
// under the limit models it again. Built server over stdio; the peak RSS is the server's own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { LspClient } from '../lsp/lspClient';
import { peakRssMb } from './limits';

const WAIT_MS = 300_000;
const START = '{"event_type":"CMD_START","t_cycle":1,"cmd_id":1}';
const END = '{"event_type":"CMD_END","t_cycle":9,"cmd_id":1}';

async function withServer(f: (c: LspClient) => Promise<void>): Promise<void> {
  const c = await LspClient.start();
  try {
    await f(c);
  } finally {
    await c.stop();
  }
}

const hoverText = (h: Hover | null) => (h ? (h.contents as MarkupContent).value : '');

describe('the language server on a document of too many lines', () => {
  it('50M blank lines (50 MB, what VS Code still hands over): one diagnostic, the server alive and bounded, a trace beside it served', async () => {
    await withServer(async (c) => {
      const uri = 'file:///big/blank.trace.jsonl';
      const d = await c.open(uri, 'npu-trace', `${START}${'\n'.repeat(50_000_000)}${END}`, WAIT_MS);
      assert.deepEqual(d.map((x) => x.code), ['server.document-too-large']);
      assert.match(d[0].message, /^This document has 50000001 lines, over the 4194304 the editor reads: it is not checked/);
      assert.equal(await c.request('textDocument/hover', c.at(uri, { line: 0, character: 3 }), WAIT_MS), null);
      // Another document is still served as usual.
      const small = 'file:///big/small.trace.jsonl';
      await c.open(small, 'npu-trace', `${START}\n${END}`, WAIT_MS);
      assert.match(hoverText(await c.request<Hover | null>('textDocument/hover', c.at(small, { line: 0, character: 3 }), WAIT_MS)), /CMD_START/);
      assert.equal(c.proc.exitCode, null, c.stderr.join(''));
      // Today ~400 MB, the text itself (the message, its string); lines cost nothing.
      const peak = peakRssMb(c.proc.pid!);
      assert.ok(peak < 1500, `server peak RSS ${Math.round(peak)} MB`);
    });
  });

  it('a paste that takes a small trace past the limit, then its undo: the diagnostic, then the trace modelled again', async () => {
    await withServer(async (c) => {
      const uri = 'file:///big/paste.trace.jsonl';
      await c.open(uri, 'npu-trace', `${START}\n${END}`, WAIT_MS);
      const pasted = await c.change(uri, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '\n'.repeat(5_000_000) }]);
      assert.deepEqual(pasted.map((x) => x.code), ['server.document-too-large']);
      assert.match(pasted[0].message, /has 5000002 lines/);
      const undone = await c.change(uri, [{ range: { start: { line: 1, character: 0 }, end: { line: 5_000_001, character: 0 } }, text: '' }]);
      assert.deepEqual(undone, []);
      assert.match(hoverText(await c.request<Hover | null>('textDocument/hover', c.at(uri, { line: 1, character: 3 }), WAIT_MS)), /CMD_END/);
      const peak = peakRssMb(c.proc.pid!);
      assert.ok(peak < 1500, `server peak RSS ${Math.round(peak)} MB`);
    });
  });
});
