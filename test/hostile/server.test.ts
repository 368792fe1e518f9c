// The language server under an edit storm and bad input, over stdio as an editor speaks to it:
// queued edits cost one validation per quiet period, requests see the latest text, a malformed
// change range is read as the editor's text document reads it, and a format that throws still
// publishes. Inputs are generated here (none of them in git).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Diagnostic, Hover, MarkupContent, TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { traceLines } from '../gen/genTrace';
import { LspClient, serverPerSuite, WAIT_MS } from '../lsp/lspClient';
import { cpuMsOf } from './limits';

/**
 * The server's own CPU time from the first edit of a storm to the hover's answer: what it spent on
 * the edits and on whatever it did before answering. Not wall time, which on a loaded machine (a CI
 * runner at load 20) measures the neighbours: before edits were coalesced, the hover waited for a
 * validation per edit (5.8 s on an idle machine for the 100k-line trace); today's figures are in
 * the log line of each storm. Request timeouts are the client's hang guard (WAIT_MS, 60 s).
 */
const HOVER_CPU_MS = 4_000;

interface Edit { change: TextDocumentContentChangeEvent; apply: (lines: string[]) => void }

const replaceIn = (lines: string[], line: number, from: string, to: string): Edit => {
  const at = lines[line].indexOf(from);
  assert.ok(at >= 0, `"${from}" on line ${line}`);
  return {
    change: { range: { start: { line, character: at }, end: { line, character: at + from.length } }, text: to },
    apply: (ls) => { ls[line] = ls[line].slice(0, at) + to + ls[line].slice(at + from.length); },
  };
};
const insertLine = (line: number, text: string): Edit => ({
  change: { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: `${text}\n` },
  apply: (ls) => { ls.splice(line, 0, text); },
});
const deleteLine = (line: number): Edit => ({
  change: { range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, text: '' },
  apply: (ls) => { ls.splice(line, 1); },
});

/** Related locations name the document; a fresh open is another document. */
const comparable = (ds: Diagnostic[]) => ds.map((d) => ({ ...d, relatedInformation: d.relatedInformation?.map((r) => ({ range: r.location.range, message: r.message })) }));

/**
 * Opens `lines`, sends the edits `next` makes without awaiting anything, then hovers `hoverAt`
 * (on the last edit's text): returns the hover, its latency from the last edit, the publishes of
 * the storm, and checks the final diagnostics against a fresh open of the final text.
 */
async function storm(c: LspClient, name: string, languageId: string, lines: string[], count: number, next: (lines: string[], i: number) => Edit, hoverAt: (lines: string[]) => { line: number; character: number }) {
  const uri = `file:///storm/${name}`;
  await c.open(uri, languageId, lines.join('\n'), WAIT_MS);
  const before = c.publishCount(uri);
  let version = 1;
  const pid = c.proc.pid!;
  const cpu0 = cpuMsOf(pid);
  for (let i = 0; i < count; i++) {
    const e = next(lines, i);
    e.apply(lines);
    version = c.notifyChange(uri, [e.change]);
  }
  const hover = await c.request<Hover | null>('textDocument/hover', c.at(uri, hoverAt(lines)), WAIT_MS);
  const hoverCpuMs = cpuMsOf(pid) - cpu0;
  const final = await c.diagnostics(uri, version, WAIT_MS);
  const publishes = c.publishCount(uri) - before;
  console.log(`${name}: the server spent ${hoverCpuMs.toFixed(0)} ms CPU from the first edit to the hover's answer, ${publishes} publishes`);
  const fresh = await c.open(`file:///storm/fresh-${name}`, languageId, lines.join('\n'), WAIT_MS);
  assert.deepEqual(comparable(final), comparable(fresh), 'the diagnostics after the storm are those of a fresh open of the final text');
  return { hover: hover ? (hover.contents as MarkupContent).value : '', hoverCpuMs, publishes, final };
}

function systrace(rows: number): string[] {
  const out = ['# tracer: nop', '#', '#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION'];
  let us = 100_000_000;
  const row = (mark: string) => {
    us += 3;
    out.push(`  NeuralNetworks-1000  ( 1000) [000] ...1   ${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}: tracing_mark_write: ${mark === 'E' ? 'E' : `B|1000|${mark}`}`);
  };
  while (out.length < rows) {
    row('[NN_LA_PO]bench_run');
    row('[NN_LR_PC]ANeuralNetworksCompilation_finish');
    row('E');
    for (let i = 0; i < 100; i++) {
      row('[NN_LA_PE]execute');
      row('[NN_LR_PE]ANeuralNetworksExecution_create');
      row('E');
      row('[NN_LR_PE]ANeuralNetworksExecution_startCompute');
      row('[NN_LI_PE]execute');
      row('E');
      row('E');
      row('E');
    }
    row('E');
  }
  return out;
}

function cmdq(entries: number): string[] {
  const out = ['{', '  "metadata": { "graph_name": "storm", "version": "1.0", "generated_by": "test/hostile/server.test.ts" },', '  "cmdq": ['];
  for (let i = 0; i < entries - 1; i++) {
    out.push(`    { "id": ${i}, "opcode": "VE_ADD_TILE", "layer_id": "layer_${Math.floor(i / 10)}", "deps_before": [${i ? i - 1 : ''}], "ve_id": 0, "length": 256, "qbits_activation": 8 },`);
  }
  out.push(`    { "id": ${entries - 1}, "opcode": "END", "layer_id": null, "deps_before": [${entries - 2}] }`, '  ]', '}');
  return out;
}

describe('language server under an edit storm', () => {
  const c = serverPerSuite();

  // Before: 301 publishes and the hover 5.8 s after the last edit (100k lines, idle machine).
  it('trace, 100k lines, 300 queued edits: few publishes, a prompt hover on the latest text, the diagnostics of a fresh open', async () => {
    const lines = [...traceLines({ events: 100_000 })];
    const enqueue = lines.findIndex((l, i) => i > 50_000 && l.includes('"CMD_ENQUEUE"'));
    const r = await storm(c, 'big.trace.jsonl', 'npu-trace', lines, 300, (ls, i) => {
      if (i === 299) return replaceIn(ls, enqueue, /"phase":"[^"]*"/.exec(ls[enqueue])![0], '"phase":"STORM_END"');
      const line = 5 + i * 331;
      if (i % 50 === 7) return insertLine(line, '{"event_type":"DMA_END","t_cycle":5,"tx_id":987654321}');
      if (i % 50 === 31) return deleteLine(line);
      if (i % 40 === 3) return replaceIn(ls, line, '"event_type":"', '"event_type":"X');
      return replaceIn(ls, line, '"t_cycle":', '"t_cycle": ');
    }, (ls) => ({ line: enqueue, character: ls[enqueue].indexOf('"cmd_id":') + 10 }));
    assert.match(r.hover, /phase \| STORM\\_END/, 'the hover reads the last edit');
    assert.ok(r.hoverCpuMs <= HOVER_CPU_MS, `the server spent ${r.hoverCpuMs.toFixed(0)} ms CPU before the hover's answer`);
    assert.ok(r.publishes <= 30, `${r.publishes} publishes for 300 edits`);
    assert.ok(r.final.some((d) => d.code === 'trace.unmatched-end'), 'the inserted orphan END is reported');
  });

  // Before: a 100k-line systrace with 300 edits had a 14 s backlog.
  it('systrace, 20k lines, 200 queued edits', async () => {
    const lines = systrace(20_000);
    let last = 0;
    const r = await storm(c, 'big.systrace', 'nnapi-systrace', lines, 200, (ls, i) => {
      const line = ls.findIndex((l, k) => k > 100 + i * 97 && l.includes('ANeuralNetworksExecution_create'));
      last = line;
      if (i === 100) return replaceIn(ls, line, '[NN_LR_PE]', '[NN_LQ_PE]');
      return replaceIn(ls, line, 'ANeuralNetworksExecution_create', `ANeuralNetworksExecution_create${i}`);
    }, () => ({ line: last, character: 60 }));
    assert.match(r.hover, /ANeuralNetworksExecution\\_create199/, 'the hover reads the last edit (escaped Markdown)');
    assert.ok(r.hoverCpuMs <= HOVER_CPU_MS, `the server spent ${r.hoverCpuMs.toFixed(0)} ms CPU before the hover's answer`);
    assert.ok(r.publishes <= 20, `${r.publishes} publishes for 200 edits`);
    assert.ok(r.final.some((d) => d.code === 'nnapi.unknown-tag'));
  });

  // Before: a 100k-entry CMDQ with 200 edits was not done after 120 s.
  it('CMDQ, 20k entries, 200 queued edits', async () => {
    const lines = cmdq(20_000);
    const r = await storm(c, 'big.cmdq.json', 'cmdq', lines, 200, (ls, i) => {
      const line = 3 + i * 97;
      if (i === 50) return replaceIn(ls, line, '"length": 256', '"length": 0');
      return replaceIn(ls, line, '"length": 256', '"length": 512');
    }, (ls) => ({ line: 3 + 199 * 97, character: ls[3 + 199 * 97].indexOf('"id": ') + 6 }));
    assert.match(r.hover, /VE_ADD_TILE/);
    assert.match(r.hover, /512/, 'the hover reads the last edit');
    assert.ok(r.hoverCpuMs <= HOVER_CPU_MS, `the server spent ${r.hoverCpuMs.toFixed(0)} ms CPU before the hover's answer`);
    assert.ok(r.publishes <= 20, `${r.publishes} publishes for 200 edits`);
    assert.ok(r.final.some((d) => d.code === 'cmdq.invalid-value'));
  });
});

describe('language server on malformed changes and failing formats', () => {
  const SAMPLE = readFileSync(join(__dirname, '../fixtures/lsp/sample.trace.jsonl'), 'utf8');

  it('reads a reversed or out-of-range change range as vscode-languageserver-textdocument does', async () => {
    const c = await LspClient.start();
    try {
      const uri = 'file:///reversed.trace.jsonl';
      await c.open(uri, 'npu-trace', SAMPLE);
      let ref = TextDocument.create(uri, 'npu-trace', 1, SAMPLE);
      const ok = SAMPLE.split('\n')[9].indexOf('"OK"');
      const batches: TextDocumentContentChangeEvent[][] = [
        // Same line, end before start: "OK" → "FAIL" (an invalid value, not broken JSON).
        [{ range: { start: { line: 9, character: ok + 4 }, end: { line: 9, character: ok } }, text: '"FAIL"' }],
        // Across lines, end above start; then both ends past the last line (the end of the text).
        [{ range: { start: { line: 6, character: 3 }, end: { line: 4, character: 10 } }, text: 'x' },
          { range: { start: { line: 400, character: 9 }, end: { line: 399, character: 0 } }, text: '\n{"event_type":"DMA_END","t_cycle":999,"tx_id":4242}' }],
      ];
      let version = 1;
      for (const b of batches) {
        version = c.notifyChange(uri, b);
        ref = TextDocument.update(ref, b, version);
      }
      const got = await c.diagnostics(uri, version, WAIT_MS);
      const fresh = await c.open('file:///reversed-fresh.trace.jsonl', 'npu-trace', ref.getText(), WAIT_MS);
      assert.deepEqual(comparable(got), comparable(fresh));
      // The first batch alone gives an invalid value on the FAIL token (today: broken JSON).
      const uri2 = 'file:///reversed2.trace.jsonl';
      await c.open(uri2, 'npu-trace', SAMPLE);
      const one = await c.change(uri2, batches[0]);
      assert.deepEqual(one.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.character]), [['trace.invalid-value', 9, ok, ok + 6]]);
    } finally {
      await c.stop();
    }
  });

  it('publishes server.internal-error when a format throws, escaped and capped, and clears it once the text parses', async () => {
    // The preload makes the trace parse throw on a marked first line, as a bug in a format would.
    const c = await LspClient.start({ execArgv: ['--require', join(__dirname, 'throw-preload.cjs')] });
    try {
      const uri = 'file:///throws.trace.jsonl';
      const marker = '{"event_type":"__npu_test_throw__"}';
      // Before: nothing was published at all (the wait, the client's hang guard, times out).
      const diags = await c.open(uri, 'npu-trace', `${marker}\n${SAMPLE}`);
      assert.equal(diags.length, 1);
      assert.equal(diags[0].code, 'server.internal-error');
      assert.equal(diags[0].severity, 1);
      assert.match(diags[0].message, /injected failure/);
      assert.ok(![...diags[0].message].some((ch) => ch.charCodeAt(0) < 0x20), 'controls in the error are made visible');
      assert.match(diags[0].message, /\\x1b\[31mred/);
      assert.ok(diags[0].message.length < 1000, `message of ${diags[0].message.length} characters`);
      const fixed = await c.change(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: '' }]);
      assert.deepEqual(fixed, []);
    } finally {
      await c.stop();
    }
  });
});
