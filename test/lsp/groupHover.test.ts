// The built server answers a hover on a phase value with that phase's numbers, and sees an edit.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { serverPerSuite } from './lspClient';

const EXAMPLE = readFileSync(resolve(__dirname, '../../examples/llm-layer.trace.jsonl'), 'utf8');
const c = serverPerSuite();

test('hover on a phase value through the server: its row of the metrics, updated after an edit', async () => {
  const uri = 'file:///group-hover.trace.jsonl';
  await c.open(uri, 'npu-trace', EXAMPLE);
  const lines = EXAMPLE.split('\n');
  const line = lines.findIndex((l) => l.includes('"event_type":"CMD_ENQUEUE"') && l.includes('"phase":"LN1"'));
  const ch = lines[line].indexOf('"LN1"') + 1;
  const h = await c.request<Hover>('textDocument/hover', c.at(uri, { line, character: ch }));
  const md = (h.contents as MarkupContent).value;
  assert.match(md, /^\*\*Phase\*\* `LN1`/);
  assert.match(md, /\| commands \| 2 \|/);
  assert.match(md, /\| latency Σ \| 449 cycles \|/);
  // Rename this command's phase: LN1 keeps one command, and the hover on the new name shows it.
  await c.change(uri, [{ range: { start: { line, character: ch }, end: { line, character: ch + 3 } }, text: 'LNX' }]);
  const after = (await c.request<Hover>('textDocument/hover', c.at(uri, { line, character: ch }))).contents as MarkupContent;
  assert.match(after.value, /^\*\*Phase\*\* `LNX`/);
  assert.match(after.value, /\| commands \| 1 \|/);
});
