// NNAPI systraces built to hurt: a mark made of `B|1|[` repeated (the reference's tag regex
// backtracks cubically on it) through the built CLI and the language server, and 100 000 nested
// scopes through the outline and the hover. Limits are far from today's costs and from the old
// failures (minutes of CPU, a response too big to send, a RangeError).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DocumentSymbol, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { serverPerSuite } from '../lsp/lspClient';
import { HEADER, row } from '../unit/nnapi/traceBuilder';
import { cpuMsOf, peakRssMb, runCliLimited, scratch } from './limits';

const LANG = 'nnapi-systrace';

/** A mark `B|1|[` × `k` (7.6 KB at 1500 took 6 s in `check`) inside a tracked NNAPI scope. */
const bracketBomb = (k: number) => [...HEADER, row({ t: 0, pid: 1, mark: 'B|1|[NN_LR_PC]compile' }), row({ t: 1, pid: 1, mark: 'B|1|['.repeat(k) }),
  row({ t: 2, pid: 1, mark: 'E' }), row({ t: 3, pid: 1, mark: 'E' })].join('\n') + '\n';

function deepNesting(n: number): string {
  const lines = [...HEADER];
  for (let i = 0; i < n; i++) lines.push(row({ t: i, pid: 1, mark: `B|1|[NN_LR_PC]f${i}` }));
  for (let i = 0; i < n; i++) lines.push(row({ t: n + i, pid: 1, mark: 'E' }));
  return lines.join('\n') + '\n';
}

const GOOD = [...HEADER, row({ t: 0, pid: 1, mark: 'B|1|[NN_LR_PC]compile' }), row({ t: 2, pid: 1, mark: 'E' })].join('\n') + '\n';

describe('nnapi hostile input: the CLI', () => {
  const s = scratch();
  after(() => s.done());

  for (const k of [2000, 4000]) {
    it(`checks a B|1|[ × ${k} mark in bounded time (was 17 s at 2000, > 120 s at 4000)`, async () => {
      const f = join(s.dir, `bomb${k}.systrace`);
      writeFileSync(f, bracketBomb(k));
      const r = await runCliLimited(['check', f], 20_000);
      assert.ok(!r.timedOut, `check still running after 20 s`);
      assert.ok(r.cpuMs < 5_000, `check took ${Math.round(r.cpuMs)} ms CPU`);
      assert.ok(r.peakMb < 1024, `peak ${r.peakMb} MB`);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const stats = await runCliLimited(['nnapi-stats', f], 20_000);
      assert.ok(!stats.timedOut && stats.cpuMs < 5_000, `nnapi-stats took ${Math.round(stats.cpuMs)} ms CPU`);
      assert.match(stats.stdout, /NNAPI timing summary/);
    });
  }
});

describe('nnapi hostile input: a line separator after many markers', () => {
  const s = scratch();
  after(() => s.done());

  it('checks it in bounded time (the row regexes retried every marker up to it: 216 KB took 9 s)', async () => {
    const f = join(s.dir, 'separator.systrace');
    const bad = `  task-1  (    1) [000] ...1  ${' 1.5: tracing_mark_write: B'.repeat(20_000)}\u2028`;
    writeFileSync(f, [...HEADER, row({ t: 0, pid: 1, mark: 'B|1|[NN_LR_PC]compile' }), bad, row({ t: 2, pid: 1, mark: 'E' })].join('\n') + '\n');
    const r = await runCliLimited(['check', f], 20_000);
    assert.ok(!r.timedOut && r.cpuMs < 5_000, `check took ${Math.round(r.cpuMs)} ms CPU`);
    assert.match(r.stdout, /:6:\d+ error nnapi\.unparsed-mark/);
  });
});

describe('nnapi hostile input: the language server', () => {
  // A server still stuck in a regex does not answer `shutdown`: stop() then kills it.
  const c = serverPerSuite();

  it('answers a hover on another document while a B|1|[ × 4000 mark is checked', async () => {
    // The server's own CPU time bounds the check of the mark (a backtracking regex took minutes);
    // wall time on a loaded machine would measure the neighbours. The hover's answer must come
    // before the client's hang guard (60 s), not within a wall-time budget.
    const pid = c.proc.pid!;
    const cpu0 = cpuMsOf(pid);
    const bad = 'file:///bomb.systrace';
    const badDiags = c.open(bad, LANG, bracketBomb(4000));
    const good = 'file:///good.systrace';
    const goodDiags = c.open(good, LANG, GOOD);
    const h = await c.request<Hover>('textDocument/hover', c.at(good, { line: HEADER.length, character: 3 }));
    assert.match((h.contents as MarkupContent).value, /compile/);
    assert.deepEqual(await goodDiags, []);
    assert.deepEqual(await badDiags, []);
    const cpu = cpuMsOf(pid) - cpu0;
    assert.ok(cpu <= 5_000, `the server spent ${Math.round(cpu)} ms CPU on the two documents and the hover`);
  });

  it('100 000 nested scopes: a bounded outline and a bounded hover, no RangeError', async () => {
    const n = 100_000;
    const uri = 'file:///deep.systrace';
    assert.deepEqual(await c.open(uri, LANG, deepNesting(n)), []);
    const pid = c.proc.pid!;
    const cpu0 = cpuMsOf(pid);
    const syms = await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    const json = JSON.stringify(syms);
    assert.ok(json.length < 8 << 20, `outline of ${json.length} bytes`);
    let depth = 0;
    for (let s: DocumentSymbol | undefined = syms[0]; s; s = s.children?.[0]) depth++;
    assert.ok(depth < 200, `outline ${depth} deep`);
    for (const line of [HEADER.length + n - 1, HEADER.length + 10_000]) {
      const h = await c.request<Hover>('textDocument/hover', c.at(uri, { line, character: 3 }));
      const md = (h.contents as MarkupContent).value;
      assert.ok(md.length < 64 << 10, `hover of ${md.length} characters`);
      assert.match(md, /more/);
    }
    // The outline and two hovers, in the server's CPU time (each had a 15 s wall-time budget before).
    const cpu = cpuMsOf(pid) - cpu0;
    assert.ok(cpu <= 15_000, `outline and hovers: ${Math.round(cpu)} ms of the server's CPU`);
    assert.ok(peakRssMb(c.proc.pid!) < 2048, 'server peak RSS');
  });
});
