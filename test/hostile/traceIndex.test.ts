// A trace that is all commands, edited: every request after an edit must cost what the edit
// touched, not the file. Before the index was kept up to date, each outline after an edit rebuilt
// the index, re-read every command's lines and sent one entry per command (150 000 here).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DocumentSymbol, Hover } from 'vscode-languageserver-protocol';
import { LspClient } from '../lsp/lspClient';
import { cpuMsOf, peakRssMb } from './limits';

const COMMANDS = 150_000;

describe('hostile: editing a trace of 150 000 commands', () => {
  it('10 edits, each followed by a hover and the outline: capped outline, ≤ 8 s of the server\'s CPU and ≤ 1.5 GB in all', async () => {
    const lines = Array.from({ length: COMMANDS }, (_, i) => `{"event_type":"CMD_ENQUEUE","t_cycle":${i},"cmd_id":${i},"cmd_type":"MATMUL","phase":"MLP"}`);
    const c = await LspClient.start();
    try {
      const uri = 'file:///hostile-commands.trace.jsonl';
      assert.deepEqual(await c.open(uri, 'npu-trace', lines.join('\n')), []);
      const first = await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
      assert.equal(first.length, 10_001);
      // The server's own CPU time: on a loaded machine wall time measures the neighbours. Requests
      // wait for the client's hang guard (60 s) only.
      const pid = c.proc.pid!;
      const cpu0 = cpuMsOf(pid);
      for (let k = 0; k < 10; k++) {
        const line = 1000 + k * 14_000;
        const at = lines[line].indexOf('"MATMUL"') + 1;
        // Typing into a command type, or a new line of a command below it (line numbers move).
        const change = k % 2 === 0
          ? { range: { start: { line, character: at }, end: { line, character: at + 6 } }, text: 'GELU__' }
          : { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: `{"event_type":"CMD_START","t_cycle":${line},"cmd_id":${line}}\n` };
        await c.change(uri, [change]);
        const hover = await c.request<Hover | null>('textDocument/hover', c.at(uri, { line: line + 1, character: lines[line + 1].indexOf('"cmd_id":') + 10 }));
        assert.ok(hover, `hover after edit ${k}`);
        const syms = await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
        assert.equal(syms.length, 10_001, 'the outline is capped: 10 000 commands and one entry for the rest');
        assert.match(syms[10_000].name, /^… 140000 more commands$/);
      }
      const ms = cpuMsOf(pid) - cpu0;
      const mb = peakRssMb(c.proc.pid!);
      assert.ok(ms <= 8000, `${Math.round(ms)} ms of the server's CPU`);
      assert.ok(mb <= 1500, `${Math.round(mb)} MB`);
    } finally {
      await c.stop();
    }
  });
});
