// CMDQ files built to hurt: a million empty entries (4M schema problems), a duplicate entry pasted
// into a 100k-entry queue (every later id shifted), ids and deps past 2^53, a BOM. The limits are
// generous bounds far from what the unbounded code cost (14–18 s and 2.3 GB in the CLI, 10–16 s
// and 3.3 GB per keystroke in the server).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeLens, Diagnostic } from 'vscode-languageserver-protocol';
import { serverPerSuite } from '../lsp/lspClient';
import { MAX_DOT_EDGES, MAX_DOT_NODES } from '../../core/cmdq/graph/dot';
import { cpuMsOf, peakRssMb, runCliLimited, scratch } from './limits';

const EMPTY_ENTRIES = 1_000_000;
const emptyQueue = (n: number) => `{"cmdq": [\n${Array.from({ length: n }, () => '{}').join(',\n')}\n]}\n`;

/** A valid queue of `n` entries, one per line: a chain of VE tiles and an END. */
function validQueue(n: number): string[] {
  const lines = ['{', '  "cmdq": ['];
  for (let i = 0; i < n - 1; i++) {
    lines.push(`    { "opcode": "VE_ADD_TILE", "id": ${i}, "layer_id": "l${i >> 4}", "deps_before": [${i ? i - 1 : ''}], "ve_id": 0, "length": 16, "qbits_activation": 8 },`);
  }
  lines.push(`    { "opcode": "END", "id": ${n - 1}, "layer_id": null, "deps_before": [${n - 2}] }`, '  ]', '}', '');
  return lines;
}

let tmp: ReturnType<typeof scratch>;
before(() => {
  tmp = scratch();
});
after(() => tmp.done());

describe('hostile CMDQ: the CLI', () => {
  it('1M empty entries with --max-problems 1: bounded time and memory, an "at least" summary, exit 1', async () => {
    const file = join(tmp.dir, 'empty.cmdq.json');
    writeFileSync(file, emptyQueue(EMPTY_ENTRIES));
    const r = await runCliLimited(['check', '--max-problems', '1', file], 30_000);
    assert.ok(!r.timedOut, `killed after ${r.ms} ms`);
    assert.equal(r.code, 1, r.stderr);
    const out = r.stdout.trim().split('\n');
    assert.equal(out.length, 2, r.stdout.slice(0, 500));
    assert.match(out[0], /too-many-problems at least \d{7} further problems not shown/);
    assert.match(out[1], /cmdq\.missing-end .*"deps_before": \[\]/);
    process.stdout.write(`# 1M {} in the CLI: ${r.ms.toFixed(0)} ms, peak ${r.peakMb.toFixed(0)} MB\n`);
    // Wall time, start-up and a loaded machine included (18.5 s unloaded before the cap; the memory
    // bound is the sharper one: 2.3 GB then).
    assert.ok(r.cpuMs <= 15_000, `${r.cpuMs.toFixed(0)} ms CPU`);
    assert.ok(r.peakMb <= 1024, `${r.peakMb.toFixed(0)} MB`);
  });

  it('an entry with 100 duplicate deps and then 1M unknown ids: the rest said, exit 1 (#29 item 12)', async () => {
    const file = join(tmp.dir, 'many-deps.cmdq.json');
    const lines = validQueue(6);
    const deps = ['0', ...Array.from({ length: 100 }, () => '0'), ...Array.from({ length: 1_000_000 }, (_, i) => String(10 + i))];
    lines[3] = lines[3].replace('"deps_before": [0]', `"deps_before": [${deps.join(', ')}]`);
    writeFileSync(file, lines.join('\n'));
    const r = await runCliLimited(['check', file], 30_000);
    assert.ok(!r.timedOut, `killed after ${r.ms} ms`);
    const out = r.stdout.trim().split('\n');
    assert.equal(out.filter((l) => / cmdq\.duplicate-dep /.test(l)).length, 100, r.stdout.slice(0, 500));
    assert.equal(out.filter((l) => / cmdq\.unknown-dep /.test(l)).length, 0);
    assert.ok(out.some((l) => /:4:\d+ information cmdq\.deps-not-listed 1000000 more problems in deps_before not listed/.test(l)), r.stdout.slice(-500));
    // The unknown ids are errors: before, they were dropped and the check passed with warnings only.
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.peakMb <= 1024, `${r.peakMb.toFixed(0)} MB`);
  });

  it('ids and deps past 2^53 are errors in CI too; a BOM is accepted', async () => {
    const file = join(tmp.dir, 'big.cmdq.json');
    const lines = validQueue(4);
    lines[2] = lines[2].replace('"id": 0', '"id": 1e300');
    lines[4] = lines[4].replace('"deps_before": [1]', '"deps_before": [9007199254740993, 1]');
    writeFileSync(file, `\ufeff${lines.join('\n')}`);
    const r = await runCliLimited(['check', file], 30_000);
    assert.equal(r.code, 1, r.stderr);
    const codes = r.stdout.trim().split('\n').map((l) => / (cmdq\.[a-z-]+) /.exec(l)?.[1]);
    // Entry 0 has no usable id, so entry 1's dep 0 names nothing and END does not reach entry 0.
    assert.deepEqual(codes, ['cmdq.invalid-value', 'cmdq.unknown-dep', 'cmdq.invalid-value', 'cmdq.end-deps'], r.stdout);
  });
});

/** `n` VE entries each waiting for every one before it (n·(n−1)/2 dependencies), then an END. */
function denseQueue(n: number): string {
  const parts = ['{"cmdq": [\n'];
  let deps = '';
  for (let i = 0; i < n; i++) {
    parts.push(`{"opcode": "VE_ADD_TILE", "id": ${i}, "layer_id": "l", "deps_before": [${deps}], "ve_id": 0, "length": 16, "qbits_activation": 8},\n`);
    deps += `${i ? ',' : ''}${i}`;
  }
  parts.push(`{"opcode": "END", "id": ${n}, "layer_id": null, "deps_before": [${n - 1}]}\n]}\n`);
  return parts.join('');
}

describe('hostile CMDQ: cmdq-graph --dot', () => {
  it('2M dependencies: the DOT is streamed and bounded, what is left out said in its label and on stderr (issue #29, 5)', async () => {
    // The 58 MB queue held 11.7M edges: 210 MB of DOT built whole in 3 GB. 2M edges
    // showed the same (34 MB of DOT, 500 MB peak); bounded, the output is the same size at any count.
    const n = 2000;
    const file = join(tmp.dir, 'dense.cmdq.json');
    writeFileSync(file, denseQueue(n));
    const edges = (n * (n - 1)) / 2 + 1;
    const r = await runCliLimited(['cmdq-graph', '--dot', file], 30_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^  label="${n + 1} of ${n + 1} entries and ${MAX_DOT_EDGES} of ${edges} dependencies drawn \\(limits ${MAX_DOT_NODES} and ${MAX_DOT_EDGES}; npu-trace cmdq-graph --json has them all\\)";$`, 'm'));
    assert.match(r.stderr, new RegExp(`draws ${n + 1} of ${n + 1} entries and ${MAX_DOT_EDGES} of ${edges} dependencies`));
    const drawn = r.stdout.split('\n').filter((l) => l.includes(' -> '));
    assert.equal(drawn.length, MAX_DOT_EDGES);
    // The critical path (the whole chain here) is drawn whatever the limit.
    assert.ok(drawn.includes(`  n${n - 1} -> n${n} [color="#d62728", penwidth=3];`), 'the last critical edge');
    assert.ok(r.stdout.endsWith('}\n'));
    assert.ok(r.stdout.length < 4 << 20, `${r.stdout.length} bytes of DOT`);
    assert.ok(r.peakMb < 300, `peak ${r.peakMb.toFixed(0)} MB`);
    assert.ok(r.cpuMs < 15_000, `${r.cpuMs.toFixed(0)} ms CPU`);
  });
});

describe('hostile CMDQ: the language server', () => {
  const c = serverPerSuite();

  it('1M empty entries: open and a keystroke bounded, at most maxProblems + 1 diagnostics, code lenses capped', async () => {
    const uri = 'file:///empty.cmdq.json';
    // CPU time of the server process: on a shared machine wall time mostly measures the neighbours.
    const pid = c.proc.pid!;
    const t0 = performance.now();
    const c0 = cpuMsOf(pid);
    const first = await c.open(uri, 'cmdq', emptyQueue(EMPTY_ENTRIES));
    const open = performance.now() - t0;
    const openCpu = cpuMsOf(pid) - c0;
    assert.equal(first.length, 1001);
    assert.match(first[0].message, /further problems not shown/);
    const t1 = performance.now();
    const c1 = cpuMsOf(pid);
    const next: Diagnostic[] = await c.change(uri, [{ range: { start: { line: 500_000, character: 1 }, end: { line: 500_000, character: 1 } }, text: '"id": 0' }]);
    const key = performance.now() - t1;
    const keyCpu = cpuMsOf(pid) - c1;
    assert.equal(next.length, 1001);
    const lenses = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.ok(lenses.length <= 5000, `${lenses.length} code lenses`);
    const peak = peakRssMb(c.proc.pid!);
    c.close(uri);
    process.stdout.write(`# 1M {} in the server: open ${open.toFixed(0)} ms (CPU ${openCpu.toFixed(0)}), keystroke ${key.toFixed(0)} ms (CPU ${keyCpu.toFixed(0)}), peak ${peak.toFixed(0)} MB, ${lenses.length} lenses\n`);
    assert.ok(openCpu <= 12_000, `open took ${openCpu.toFixed(0)} ms CPU`);
    assert.ok(keyCpu <= 6_000, `a keystroke took ${keyCpu.toFixed(0)} ms CPU`);
    assert.ok(peak <= 1536, `server peak ${peak.toFixed(0)} MB`);
  });

  it('a duplicate entry pasted into a 100k-entry queue: later keystrokes cost about what they cost before', async () => {
    const lines = validQueue(100_000);
    const text = lines.join('\n');
    // Five keystrokes just after the paste: every entry after them is shifted by each one.
    const type = async (uri: string, line: number): Promise<number> => {
      const pid = c.proc.pid!;
      const cpu0 = cpuMsOf(pid);
      for (let k = 0; k < 5; k++) {
        const p = { line: line + k, character: 5 };
        await c.change(uri, [{ range: { start: p, end: p }, text: ' ' }]);
      }
      return cpuMsOf(pid) - cpu0;
    };
    await c.open('file:///valid.cmdq.json', 'cmdq', text);
    const valid = await type('file:///valid.cmdq.json', 1_200);
    c.close('file:///valid.cmdq.json');
    const uri = 'file:///pasted.cmdq.json';
    await c.open(uri, 'cmdq', text);
    const pasted = await c.change(uri, [{ range: { start: { line: 1_000, character: 0 }, end: { line: 1_000, character: 0 } }, text: `${lines[1_000]}\n` }]);
    assert.equal(pasted.length, 1001);
    assert.ok(pasted.some((d) => d.code === 'cmdq.duplicate-id'));
    const dup = await type(uri, 1_200);
    c.close(uri);
    process.stdout.write(`# 5 keystrokes, server CPU: ${valid.toFixed(0)} ms valid, ${dup.toFixed(0)} ms after the paste\n`);
    assert.ok(dup <= 2.5 * valid + 500, `5 keystrokes: ${dup.toFixed(0)} ms CPU after the paste, ${valid.toFixed(0)} ms on the valid queue`);
  });

  it('a BOM before the object: no cmdq.invalid-json', async () => {
    const d = await c.open('file:///bom.cmdq.json', 'cmdq', `\ufeff${validQueue(5).join('\n')}`);
    assert.deepEqual(d, []);
  });

  it('ids and deps past 2^53 get diagnostics on their tokens', async () => {
    const lines = validQueue(4);
    lines[2] = lines[2].replace('"id": 0', '"id": 1e300');
    lines[4] = lines[4].replace('"deps_before": [1]', '"deps_before": [9007199254740993, 1]');
    const d = await c.open('file:///big.cmdq.json', 'cmdq', lines.join('\n'));
    const under = (x: Diagnostic) => lines[x.range.start.line].slice(x.range.start.character, x.range.end.character);
    assert.deepEqual(d.map((x) => [x.code, under(x)]), [
      ['cmdq.invalid-value', '1e300'], ['cmdq.unknown-dep', '0'], ['cmdq.invalid-value', '9007199254740993'], ['cmdq.end-deps', '[2]'],
    ]);
  });
});
