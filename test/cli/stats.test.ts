// `npu-trace stats` as users run it: the bundled dist/cli.js in a child process, on the examples.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Ajv from 'ajv';
import fc from 'fast-check';
import { forEachLine } from '../../node/io/lines';
import { MetricsCollector } from '../../core/trace/metrics/collector';
import { ROOT, runCli } from './run';

const EXAMPLE = join(ROOT, 'examples/llm-layer.trace.jsonl');
const FAULTY = join(ROOT, 'examples/faulty.trace.jsonl');
const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/stats.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

let dir = '';
before(() => { dir = mkdtempSync(join(tmpdir(), 'stats-cli-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

async function json(args: string[]): Promise<Record<string, unknown>> {
  const r = await runCli(['stats', '--json', ...args]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.ok(validate(out), JSON.stringify(validate.errors));
  return out;
}

describe('npu-trace stats', () => {
  it('prints metrics of the example that the published schema accepts', async () => {
    const s = await json([EXAMPLE]);
    assert.equal(s.events, 3369);
    assert.equal(s.unpaired, 0);
    assert.deepEqual(s.window, { from: 100, to: 19227 });
    const cores = s.cores as { te_util: number }[];
    assert.ok(cores[0].te_util > 0.5 && cores[0].te_util < 1);
    assert.deepEqual((s.layers as { layer_id: string }[]).map((l) => l.layer_id), ['0', '1']);
  });

  it('reads .gz and gives the same numbers', async () => {
    const gz = join(dir, 'x.trace.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(EXAMPLE)));
    assert.deepEqual(await json([gz]), await json([EXAMPLE]));
  });

  it('--from/--to compute the metrics of that window only', async () => {
    const s = await json(['--from', '1000', '--to', '2000', EXAMPLE]);
    assert.deepEqual(s.window, { from: 1000, to: 2000 });
    assert.equal(s.span_cycles, 1000);
    for (const c of s.cores as { te_busy_cycles: number }[]) assert.ok(c.te_busy_cycles <= 1000);
  });

  it('a trace with errors still gets its metrics, broken pairs counted', async () => {
    const s = await json([FAULTY]);
    assert.ok((s.unpaired as number) > 0);
    assert.ok((s.events as number) > 300);
  });

  it('prints tables by default', async () => {
    const r = await runCli(['stats', EXAMPLE]);
    assert.equal(r.code, 0, r.stderr);
    for (const h of ['Engines per core', 'Phases', 'Layers', 'Idle', 'SRAM']) assert.ok(r.stdout.includes(h), h);
  });

  it('an unreadable file or bad arguments: one clear line and exit 2', async () => {
    const missing = await runCli(['stats', join(dir, 'nope.trace.jsonl')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such file/);
    const bad = await runCli(['stats', '--from', 'x', EXAMPLE]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--from takes a cycle/);
    const corrupt = join(dir, 'bad.trace.jsonl.gz');
    writeFileSync(corrupt, Buffer.from('not gzip at all'));
    const c = await runCli(['stats', corrupt]);
    assert.equal(c.code, 2);
    assert.equal(c.stderr.trim().split('\n').length, 1, c.stderr);
  });

  it('names from the file cannot reach the terminal as escape sequences', async () => {
    const f = join(dir, 'esc.trace.jsonl');
    writeFileSync(f, [
      { event_type: 'CMD_ENQUEUE', t_cycle: 0, cmd_id: 1, cmd_type: 'X', phase: 'P\u001b]0;owned\u0007\u001b[2K' },
      { event_type: 'CMD_START', t_cycle: 1, cmd_id: 1 }, { event_type: 'CMD_END', t_cycle: 9, cmd_id: 1 },
    ].map((e) => JSON.stringify(e)).join('\n'));
    const r = await runCli(['stats', f]);
    assert.equal(r.code, 0);
    assert.ok(!r.stdout.includes('\u001b'), 'no ESC byte printed');
    assert.ok(r.stdout.includes('P\\x1b]0;owned'));
  });

  it('--json equals the metrics of JSON.parse on every line the text reader gives, on varied files', async () => {
    // The CLI reads bytes and parses only lines it cannot read from them; the reference parses each
    // line `forEachLine` gives. Files: the examples' lines respelled, with CRLF, lone CR, BOM, blank
    // and broken lines, non-ASCII and escaped names, big ids, gzip.
    const lines = [...readFileSync(EXAMPLE, 'utf8').split('\n'), ...readFileSync(FAULTY, 'utf8').split('\n')].filter((l) => l.trim());
    const respell = (l: string, how: number) => {
      switch (how) {
        case 0: return l.replace(/,"/g, ', "').replace(/":/g, '" :\t');
        case 1: return l.replace(/"phase":"([A-Z0-9]+)"/, '"phase":"\\u00e9$1"');
        case 2: return l.replace(/"phase":"([A-Z0-9]+)"/, '"phase":"é$1"');
        case 3: return l.replace(/"cmd_id":(\d+)/, '"cmd_id":$1.0,"cmd_id":$1');
        case 4: return l.replace(/"job_id":(\d+)/, '"job_id":900719925474099$1');
        case 5: return l.slice(0, Math.floor(l.length / 2));
        case 6: return '';
        default: return l;
      }
    };
    const files = fc.sample(fc.tuple(
      fc.array(fc.tuple(fc.integer({ min: 0, max: lines.length - 1 }), fc.integer({ min: 0, max: 30 })), { minLength: 50, maxLength: 400 }),
      fc.constantFrom('\n', '\r\n', '\r'), fc.boolean(), fc.boolean(),
    ), { numRuns: 6, seed: 14 }).map(([picks, eol, bom, gz], k) => {
      const text = (bom ? '\ufeff' : '') + picks.map(([i, how]) => respell(lines[i], how)).join(eol);
      const f = join(dir, `random-${k}.trace.jsonl${gz ? '.gz' : ''}`);
      writeFileSync(f, gz ? gzipSync(text) : text);
      return f;
    });
    // Lines past the 8 MB limit: over it in bytes but not in UTF-16 units (kept), and over it in both (dropped).
    const long = join(dir, 'long.trace.jsonl');
    const cmd = (phase: string) => [`{"event_type":"CMD_ENQUEUE","t_cycle":1,"cmd_id":7,"phase":"${phase}"}`, '{"event_type":"CMD_START","t_cycle":2,"cmd_id":7}', '{"event_type":"CMD_END","t_cycle":9,"cmd_id":7}'];
    writeFileSync(long, [...cmd('é'.repeat(4_500_000)), ...cmd('x'.repeat(9_000_000)).map((l) => l.replace(/7/g, '8'))].join('\n'));
    files.push(EXAMPLE, FAULTY, long);
    for (const f of files) {
      const c = new MetricsCollector();
      await forEachLine(f, (l) => c.addLine(l));
      const r = await runCli(['stats', '--json', f]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `${JSON.stringify(c.finish(), null, 2)}\n`, f);
    }
  });
});
