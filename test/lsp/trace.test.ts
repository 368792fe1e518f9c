import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import type { DocumentSymbol, Hover, Location, MarkupContent } from 'vscode-languageserver-protocol';
import { serverPerSuite } from './lspClient';

const SAMPLE = readFileSync(resolve(__dirname, '../fixtures/lsp/sample.trace.jsonl'), 'utf8');
const lines = SAMPLE.split('\n');
const col = (line: number, needle: string) => lines[line].indexOf(needle);

describe('trace language server over stdio', () => {
  const c = serverPerSuite();

  it('publishes no diagnostics for a valid trace', async () => {
    assert.deepEqual(await c.open('file:///valid.trace.jsonl', 'npu-trace', SAMPLE), []);
  });

  it('reports a typed mistake on the edited token and clears it when undone', async () => {
    const uri = 'file:///edit.trace.jsonl';
    await c.open(uri, 'npu-trace', SAMPLE);
    const at = col(9, '"OK"');
    const diags = await c.change(uri, [{ range: { start: { line: 9, character: at }, end: { line: 9, character: at + 4 } }, text: '"FAIL"' }]);
    assert.equal(diags.length, 1);
    assert.equal(diags[0].code, 'trace.invalid-value');
    assert.deepEqual(diags[0].range, { start: { line: 9, character: at }, end: { line: 9, character: at + 6 } });
    assert.match(diags[0].message, /OK, ERROR, TIMEOUT, ABORTED/);
    const undone = await c.change(uri, [{ range: { start: { line: 9, character: at }, end: { line: 9, character: at + 6 } }, text: '"OK"' }]);
    assert.deepEqual(undone, []);
  });

  it('keeps positions right when lines are inserted and removed incrementally', async () => {
    const uri = 'file:///insert.trace.jsonl';
    await c.open(uri, 'npu-trace', SAMPLE);
    // Insert two lines before the CMD_START: a broken one and an orphan DMA_END.
    const inserted = '{"event_type": "DMA_END", "t_cycle": 120, "tx_id": 77}\n{oops\n';
    let diags = await c.change(uri, [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: inserted }]);
    assert.deepEqual(diags.map((d) => [d.code, d.range.start.line]).sort(), [['trace.invalid-json', 3], ['trace.unmatched-end', 2]]);
    // Remove them again: the document is valid once more.
    diags = await c.change(uri, [{ range: { start: { line: 2, character: 0 }, end: { line: 4, character: 0 } }, text: '' }]);
    assert.deepEqual(diags, []);
    // Deleting the CMD_END line leaves the CMD_START unmatched, on its cmd_id value.
    diags = await c.change(uri, [{ range: { start: { line: 9, character: 0 }, end: { line: 10, character: 0 } }, text: '' }]);
    assert.equal(diags.length, 1);
    assert.equal(diags[0].code, 'trace.unmatched-start');
    assert.equal(diags[0].range.start.line, 2);
    assert.equal(diags[0].range.start.character, col(2, '42'));
  });

  it('hovers a cmd_id with the command summary', async () => {
    const uri = 'file:///hover.trace.jsonl';
    await c.open(uri, 'npu-trace', SAMPLE);
    const h = await c.request<Hover>('textDocument/hover', c.at(uri, { line: 5, character: col(5, '42') + 1 }));
    const md = (h.contents as MarkupContent).value;
    assert.match(md, /Command `42`.*MATMUL/);
    assert.match(md, /phase \| QKV\\_PROJ/, 'values are Markdown-escaped: `_` is written \\_');
    assert.match(md, /layer \| 3/);
    assert.match(md, /start \| 150/);
    assert.match(md, /end \| 900 \(OK\)/);
    assert.match(md, /latency \| 750 cycles/);
    assert.match(md, /jobs \| 1/);
    assert.match(md, /DMA bytes \| 65,536/);
  });

  it('hovers t_cycle with ns from the TRACE_META clock and the offset from its command', async () => {
    const uri = 'file:///hover-t.trace.jsonl';
    await c.open(uri, 'npu-trace', SAMPLE);
    const h = await c.request<Hover>('textDocument/hover', c.at(uri, { line: 5, character: col(5, '230') }));
    const md = (h.contents as MarkupContent).value;
    assert.match(md, /= 115 ns at 2 GHz/);
    assert.match(md, /\+80 cycles from the start of command `42`/);
  });

  it('hovers a tx_id with every leg and an exact 64-bit address value', async () => {
    const uri = 'file:///hover-tx.trace.jsonl';
    await c.open(uri, 'npu-trace', SAMPLE);
    const h = await c.request<Hover>('textDocument/hover', c.at(uri, { line: 6, character: col(6, '500') }));
    assert.match((h.contents as MarkupContent).value, /\| DMA \| 210 \| 260 \| 50 cycles \| DRAM\\_TO\\_SRAM · ch 0 · 65,536 B · cmd 42 \|/);
    const a = await c.request<Hover>('textDocument/hover', c.at(uri, { line: 1, character: col(1, '18446744073709551615') }));
    assert.match((a.contents as MarkupContent).value, /`18446744073709551615`/);
  });

  it('goes to the CMD_ENQUEUE of a cmd_id and from an END to its START', async () => {
    const uri = 'file:///def.trace.jsonl';
    await c.open(uri, 'npu-trace', SAMPLE);
    const d = await c.request<Location>('textDocument/definition', c.at(uri, { line: 5, character: col(5, '42') }));
    assert.deepEqual(d.range, { start: { line: 1, character: col(1, '42') }, end: { line: 1, character: col(1, '42') + 2 } });
    const e = await c.request<Location>('textDocument/definition', c.at(uri, { line: 6, character: col(6, '500') }));
    assert.equal(e.range.start.line, 4);
    const j = await c.request<Location>('textDocument/definition', c.at(uri, { line: 8, character: col(8, '1001') }));
    assert.equal(j.range.start.line, 5, 'TE_END job_id goes to its TE_START');
  });

  it('finds every line of a command', async () => {
    const uri = 'file:///refs.trace.jsonl';
    await c.open(uri, 'npu-trace', SAMPLE);
    const refs = await c.request<Location[]>('textDocument/references', { ...c.at(uri, { line: 2, character: col(2, '42') }), context: { includeDeclaration: true } });
    assert.deepEqual(refs.map((r) => r.range.start.line), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('outlines the commands', async () => {
    const uri = 'file:///sym.trace.jsonl';
    await c.open(uri, 'npu-trace', SAMPLE);
    const syms = await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.equal(syms.length, 1);
    assert.equal(syms[0].name, 'cmd 42 MATMUL');
    assert.equal(syms[0].detail, 'QKV_PROJ · layer 3');
    assert.equal(syms[0].range.end.line, 9);
  });

  it('applies per-code severities from settings, including off', async () => {
    const uri = 'file:///settings.trace.jsonl';
    const text = SAMPLE.replace('"t_cycle": 260, "job_id": 1001, "cmd_id": 42, "job_type"', '"t_cycle": 190, "job_id": 1001, "cmd_id": 42, "job_type"');
    let diags = await c.open(uri, 'npu-trace', text);
    assert.ok(diags.some((d) => d.code === 'trace.time-backwards' && d.severity === 2));
    c.settings = { severity: { 'trace.time-backwards': 'error', 'trace.end-before-start': 'off' } };
    const next = c.diagnostics(uri);
    await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    diags = await next;
    assert.ok(diags.some((d) => d.code === 'trace.time-backwards' && d.severity === 1));
    assert.ok(!diags.some((d) => d.code === 'trace.end-before-start'));
    c.settings = {};
  });

  it('ignores a malformed change and keeps publishing for later edits', async () => {
    const uri = 'file:///malformed.trace.jsonl';
    await c.open(uri, 'npu-trace', SAMPLE);
    // A change without `text`, as a broken client might send: the document must stay as it was.
    assert.deepEqual(await c.change(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } } as never]), []);
    const at = col(9, '"OK"');
    const diags = await c.change(uri, [{ range: { start: { line: 9, character: at }, end: { line: 9, character: at + 4 } }, text: '"BAD"' }]);
    assert.deepEqual(diags.map((d) => [d.code, d.range.start.line]), [['trace.invalid-value', 9]]);
  });

  it('caps the published diagnostics at 1000 with a summary on line 1', async () => {
    const uri = 'file:///many.trace.jsonl';
    const text = Array.from({ length: 1500 }, () => '{bad').join('\n');
    const diags = await c.open(uri, 'npu-trace', text);
    assert.equal(diags.length, 1001);
    assert.equal(diags[0].range.start.line, 0);
    assert.match(diags[0].message, /^500 further problems not shown/);
  });

  it('survives hostile input and still answers on another file', async () => {
    // One line of binary bytes (line breaks left out so line numbers below stay exact).
    const garbage = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256).filter((b) => b !== 10 && b !== 13)).toString('latin1');
    // 7 MB: under the 8 MB line limit, so it is parsed (test/hostile/stream.test.ts has one over it).
    const huge = '{"event_type": "CMD_START", "t_cycle": 1, "cmd_id": 1, "pad": "' + 'x'.repeat(7 * 1024 * 1024) + '"}';
    const deep = '['.repeat(10000) + ']'.repeat(10000);
    const d1 = await c.open('file:///hostile.trace.jsonl', 'npu-trace', [garbage, huge, deep, '{"event_type": NaN}'].join('\r\n'));
    assert.ok(d1.some((d) => d.code === 'trace.invalid-json' && d.range.start.line === 0));
    assert.ok(d1.some((d) => d.code === 'trace.unmatched-start' && d.range.start.line === 1));
    assert.ok(d1.some((d) => d.code === 'trace.not-object' && d.range.start.line === 2));
    assert.ok(d1.some((d) => d.code === 'trace.invalid-json' && d.range.start.line === 3));
    const h = await c.request<Hover>('textDocument/hover', c.at('file:///hostile.trace.jsonl', { line: 1, character: 20 }));
    assert.match((h.contents as MarkupContent).value, /\*\*CMD_START\*\*/, 'hover still works on the 7 MB line');
    assert.deepEqual(await c.open('file:///after.trace.jsonl', 'npu-trace', SAMPLE), []);
  });
});
