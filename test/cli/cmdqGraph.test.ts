// `npu-trace cmdq-graph` of the bundled CLI in a child process.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { CLI, ROOT, runCli } from './run';

const GOLDEN = join(ROOT, 'examples/golden.cmdq.json');
const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/cmdq-graph.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
let dir = '';
before(() => {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first (npm test does)`);
  dir = mkdtempSync(join(tmpdir(), 'cmdq-graph-cli-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface Dot {
  name: string;
  nodes: Map<string, Record<string, string>>;
  edges: { from: string; to: string; attrs: Record<string, string> }[];
  ranks: string[][];
}

/**
 * A reader of the DOT subset a graph needs (digraph, node and edge statements with attribute
 * lists, `rank=same` subgraphs, quoted strings with `\"` and `\\`), strict: anything else throws.
 * Written here so the test does not trust the writer's own idea of DOT.
 */
function parseDot(src: string): Dot {
  const toks: string[] = [];
  for (let i = 0; i < src.length; ) {
    const c = src[i];
    if (/\s/.test(c)) i++;
    else if (c === '"') {
      let s = '';
      for (i++; src[i] !== '"'; i++) {
        if (i >= src.length) throw new Error('unterminated string');
        if (src[i] === '\n') throw new Error('raw line break inside a string');
        if (src[i] === '\\') {
          const n = src[++i];
          s += n === '"' || n === '\\' ? n : `\\${n}`;
        } else s += src[i];
      }
      i++;
      toks.push(`"${s}`);
    } else if (src.startsWith('->', i)) {
      toks.push('->');
      i += 2;
    } else if ('{}[];,='.includes(c)) toks.push(src[i++]);
    else {
      const m = /^[A-Za-z0-9_.#]+/.exec(src.slice(i, i + 100));
      if (!m) throw new Error(`unexpected ${JSON.stringify(src.slice(i, i + 20))}`);
      toks.push(m[0]);
      i += m[0].length;
    }
  }
  let k = 0;
  const next = (): string => {
    if (k >= toks.length) throw new Error('unexpected end');
    return toks[k++];
  };
  const expect = (t: string): void => assert.equal(next(), t);
  const value = (t: string): string => (t.startsWith('"') ? t.slice(1) : t);
  const attrList = (): Record<string, string> => {
    const out: Record<string, string> = {};
    expect('[');
    for (let t = next(); t !== ']'; t = next()) {
      if (t === ',') continue;
      expect('=');
      out[t] = value(next());
    }
    return out;
  };
  expect('digraph');
  const dot: Dot = { name: next(), nodes: new Map(), edges: [], ranks: [] };
  expect('{');
  for (let t = next(); t !== '}'; t = next()) {
    if (t === ';') continue;
    if (t === '{') {
      const rank: string[] = [];
      for (const w of ['rank', '=', 'same', ';']) expect(w);
      for (let u = next(); u !== '}'; u = next()) if (u !== ';') rank.push(u);
      dot.ranks.push(rank);
    } else if (toks[k] === '=') {
      k += 2; // a graph attribute (rankdir=LR)
    } else if (toks[k] === '->') {
      next();
      const to = next();
      dot.edges.push({ from: t, to, attrs: toks[k] === '[' ? attrList() : {} });
    } else if (t === 'node' || t === 'edge') attrList();
    else dot.nodes.set(t, toks[k] === '[' ? attrList() : {});
  }
  assert.equal(k, toks.length, 'nothing after the graph');
  return dot;
}

describe('npu-trace cmdq-graph', () => {
  it('text: levels, critical path with its total, per-engine load of the golden CMDQ', async () => {
    const r = await runCli(['cmdq-graph', GOLDEN]);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], `${GOLDEN}: 6 entries, 5 levels, critical path 448 cycles, list-scheduled run 512 cycles`);
    assert.equal(lines[2], 'critical path (5 entries): 0 DMA_LOAD_TILE → 2 TE_GEMM_TILE → 3 VE_LAYERNORM_TILE → 4 DMA_STORE_TILE → 5 END');
    assert.match(r.stdout, /^TE 0 +1 +256 +256 +57\.1% +50%$/m);
    assert.match(r.stdout, /^entries per level: 0:2 1:1 2:1 3:1 4:1$/m);
  });

  it('--json: what the published schema accepts, with the analysis of the golden CMDQ', async () => {
    const r = await runCli(['cmdq-graph', '--json', '--te-macs-per-cycle', '2048', GOLDEN]);
    assert.equal(r.code, 0);
    const out = JSON.parse(r.stdout) as { criticalPath: { cycles: number; entries: number[] }; schedule: { makespan: number }; levels: number[]; nodes: { slack: number; earliestStart: number }[] };
    assert.ok(validate(out), JSON.stringify(validate.errors));
    // The GEMM takes 64³ / 2048 = 128 cycles: 64 + 128 + 64 + 64.
    assert.deepEqual(out.criticalPath, { ...out.criticalPath, cycles: 320, entries: [0, 2, 3, 4, 5] });
    assert.equal(out.schedule.makespan, 384);
    assert.deepEqual(out.levels, [2, 1, 1, 1, 1]);
    assert.deepEqual(out.nodes.map((n) => n.earliestStart), [0, 0, 64, 192, 256, 320]);
  });

  it('--dot parses back: a node per entry, an edge per dep, ranks by level, the critical path marked', async () => {
    const r = await runCli(['cmdq-graph', '--dot', GOLDEN]);
    assert.equal(r.code, 0);
    const dot = parseDot(r.stdout);
    assert.deepEqual([...dot.nodes.keys()], ['n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
    assert.equal(dot.nodes.get('n2')!.label, '2 TE_GEMM_TILE\\nffn_0\\n256 cycles');
    assert.deepEqual(dot.edges.map((e) => `${e.from}->${e.to}`), ['n0->n2', 'n1->n2', 'n2->n3', 'n3->n4', 'n4->n5']);
    assert.deepEqual(dot.ranks, [['n0', 'n1']]);
    const critical = [...dot.nodes].filter(([, a]) => a.penwidth === '3').map(([n]) => n);
    assert.deepEqual(critical, ['n0', 'n2', 'n3', 'n4', 'n5']);
    assert.deepEqual(dot.edges.filter((e) => e.attrs.penwidth === '3').map((e) => e.from), ['n0', 'n2', 'n3', 'n4']);
  });

  it('hostile names stay inside their DOT string and off the terminal; a cycle is reported, not hung on', async () => {
    const file = join(dir, 'hostile.cmdq.json');
    const evil = 'a"];\n n9 -> n0; x [label="\\\u001b[31m}';
    const ve = (id: number, deps: number[]) => ({ opcode: 'VE_ADD_TILE', id, layer_id: evil, deps_before: deps, ve_id: 0, length: 64, qbits_activation: 8 });
    writeFileSync(file, JSON.stringify({ cmdq: [ve(0, []), ve(1, [0, 2]), ve(2, [1]), { opcode: 'END', id: 3, layer_id: null, deps_before: [1, 2] }] }));
    const dotRun = await runCli(['cmdq-graph', '--dot', file]);
    assert.equal(dotRun.code, 0);
    assert.match(dotRun.stderr, /has errors/);
    const dot = parseDot(dotRun.stdout);
    assert.equal(dot.nodes.size, 4);
    assert.equal(dot.nodes.get('n0')!.label, `0 VE_ADD_TILE\\n${'a"];\\x0a n9 -> n0; x [label="\\\\x1b[31m}'}\\n1 cycles`);
    assert.deepEqual(dot.edges.map((e) => [`${e.from}->${e.to}`, e.attrs.style]), [['n0->n1', 'dashed'], ['n1->n2', 'dashed'], ['n1->n3', 'dashed'], ['n2->n1', 'dashed'], ['n2->n3', 'dashed']]);
    const text = await runCli(['cmdq-graph', file]);
    assert.match(text.stdout, /^blocked: 3 entries can never start: 1 dependency cycle \(1 → 2\) and what waits for them$/m);
    // eslint-disable-next-line no-control-regex -- no control character may reach the terminal
    assert.doesNotMatch(text.stdout + text.stderr, /[\u0000-\u0009\u000b-\u001f]/);
  });

  it('--trace joins layers with the trace metrics (npu-trace stats) by layer_id, through --layer-map', async () => {
    const trace = join(ROOT, 'examples/llm-layer.trace.jsonl');
    const map = join(dir, 'map.json');
    writeFileSync(map, JSON.stringify({ ffn_0: 0, ffn_0_ln: '1' }));
    const stats = JSON.parse((await runCli(['stats', '--json', trace])).stdout) as { layers: { layer_id: string; span_cycles: number; te_busy_cycles: number; ve_busy_cycles: number; dma_busy_cycles: number; commands: number }[] };
    const r = await runCli(['cmdq-graph', '--json', '--trace', trace, '--layer-map', map, GOLDEN]);
    assert.equal(r.code, 0);
    const out = JSON.parse(r.stdout) as { join: { trace: string; layers: { layer: string; traceLayer: string | null; estimated: object; measured: object | null; ratio: number | null }[] } };
    assert.ok(validate(out), JSON.stringify(validate.errors));
    const measured = (id: string) => {
      const l = stats.layers.find((x) => x.layer_id === id)!;
      return { span: l.span_cycles, te: l.te_busy_cycles, ve: l.ve_busy_cycles, dma: l.dma_busy_cycles, commands: l.commands };
    };
    // ffn_0: loads at 0 and 64, GEMM 128..384, store 448..512: span 512, TE 256, DMA 64 × 3.
    assert.deepEqual(out.join.layers.map((l) => [l.layer, l.traceLayer, l.estimated, l.measured]), [
      ['ffn_0', '0', { span: 512, te: 256, ve: 0, dma: 192 }, measured('0')],
      ['ffn_0_ln', '1', { span: 64, te: 0, ve: 64, dma: 0 }, measured('1')],
    ]);
    assert.equal(out.join.layers[0].ratio, Math.round((measured('0').span / 512) * 100) / 100);
    const text = await runCli(['cmdq-graph', '--trace', trace, GOLDEN]);
    assert.match(text.stdout, /^ffn_0 +\(none\) +4 +512 +- +- +256 +- +0 +- +192 +-$/m);
    assert.match(text.stdout, /^2 layers of the CMDQ not in the trace: name the trace's layer with --layer-map$/m);
  });

  it('busy time is the union of what ran: blocked entries add nothing, utilization never over 100 % (issue #29, 16)', async () => {
    // The golden queue with the GEMM waiting for itself: it and all after it are blocked; only the
    // two loads run (128 cycles). TE 0 ran nothing (was 256 busy, 200 %).
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as { cmdq: { deps_before: number[] }[] };
    golden.cmdq[2].deps_before = [0, 1, 2];
    const file = join(dir, 'self-blocked.cmdq.json');
    writeFileSync(file, JSON.stringify(golden));
    const r = await runCli(['cmdq-graph', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /list-scheduled run 128 cycles/);
    assert.match(r.stdout, /^DMA load +2 +128 +\d+ +[\d.]+% +100%$/m);
    assert.match(r.stdout, /^TE 0 +1 +0 +0 +0% +0%$/m);
    const json = JSON.parse((await runCli(['cmdq-graph', '--json', file])).stdout) as { schedule: { makespan: number; engines: { engine: string; busy: number; utilization: number }[] } };
    assert.ok(validate(json), JSON.stringify(validate.errors));
    for (const e of json.schedule.engines) assert.ok(e.busy <= json.schedule.makespan && e.utilization <= 100, JSON.stringify(e));
    assert.deepEqual(json.schedule.engines.map((e) => [e.engine, e.busy]), [['DMA load', 128], ['DMA store', 0], ['TE 0', 0], ['VE 0', 0]]);
  });

  it('the text engine table is capped: 300 distinct te_ids print 64 rows and a count', async () => {
    const file = join(dir, 'wide.cmdq.json');
    const te = (id: number) => ({ opcode: 'TE_GEMM_TILE', id, layer_id: null, deps_before: [], te_id: id, ifm_bank: 0, wgt_bank: 1, ofm_bank: 2, m: 8, n: 8, k: 16 });
    writeFileSync(file, JSON.stringify({ cmdq: Array.from({ length: 300 }, (_, i) => te(i)) }));
    const r = await runCli(['cmdq-graph', file]);
    assert.equal(r.stdout.split('\n').filter((l) => /^TE \d+ /.test(l)).length, 64);
    assert.match(r.stdout, /^… 236 more engines \(--json lists them all\)$/m);
    const json = JSON.parse((await runCli(['cmdq-graph', '--json', file])).stdout) as { schedule: { engines: unknown[] } };
    assert.equal(json.schedule.engines.length, 300);
  });

  it('unusable arguments and files that are not a CMDQ exit 2', async () => {
    const notCmdq = join(dir, 'x.cmdq.json');
    writeFileSync(notCmdq, '[1, 2]');
    const badMap = join(dir, 'bad-map.json');
    writeFileSync(badMap, '["ffn_0"]');
    const trace = join(ROOT, 'examples/llm-layer.trace.jsonl');
    for (const args of [['--json', '--dot', GOLDEN], [], ['--ve-elements-per-cycle', '0', GOLDEN], [join(dir, 'missing.cmdq.json')], [notCmdq],
      ['--layer-map', badMap, GOLDEN], ['--trace', trace, '--layer-map', badMap, GOLDEN], ['--trace', join(dir, 'missing.trace.jsonl'), GOLDEN], ['--dot', '--trace', trace, GOLDEN]]) {
      const r = await runCli(['cmdq-graph', ...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '');
    }
  });
});
