// `npu-trace export --to chrome-trace` as users run it: the bundled dist/cli.js on the examples.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, deflateRawSync, gunzipSync, gzipSync } from 'node:zlib';
import Ajv from 'ajv';
import { buildTimeline } from '../../core/detectFormat';
import { spawn } from 'node:child_process';
import { pytorchFlowsTrace } from '../gen/chromeGen';
import { arrowsOf } from '../unit/export/perfetto';
import { CLI, ROOT, runCli } from './run';

const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/chrome/chrome-trace.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

interface Ev { ph: string; name?: string; args?: Record<string, unknown> }
interface Doc { traceEvents: Ev[]; otherData: Record<string, string> }

let dir = '';
before(() => { dir = mkdtempSync(join(tmpdir(), 'export-cli-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

function counts(doc: Doc): Record<string, number> {
  const c: Record<string, number> = {};
  for (const e of doc.traceEvents) c[e.ph] = (c[e.ph] ?? 0) + 1;
  return c;
}

function parsed(text: string): Doc {
  const doc = JSON.parse(text) as Doc;
  assert.ok(validate(doc), JSON.stringify(validate.errors?.slice(0, 3)));
  return doc;
}

/** Spans and instants of the file's own timeline model, as the exporter must write them. */
function modelCounts(file: string): { spans: number; instants: number } {
  const m = buildTimeline(file, readFileSync(join(ROOT, file), 'utf8').split(/\r?\n/))!;
  let instants = 0;
  for (let i = 0; i < m.items.flags.length; i++) if (m.items.flags[i] & 1) instants++;
  return { spans: m.items.flags.length - instants, instants };
}

describe('npu-trace export', () => {
  it('exports the example NPU trace to a file: every span, instant, flow and counter', async () => {
    const out = join(dir, 'llm.json');
    const r = await runCli(['export', 'examples/llm-layer.trace.jsonl', '--to', 'chrome-trace', '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    const doc = parsed(readFileSync(out, 'utf8'));
    const m = modelCounts('examples/llm-layer.trace.jsonl');
    assert.deepEqual(counts(doc), { M: 38, X: m.spans, i: m.instants, s: 1360, f: 1360, C: 2446 });
    assert.equal(doc.otherData.source, 'examples/llm-layer.trace.jsonl');
    assert.match(doc.otherData.clock, /^1 cycle = 0\.83\d* ns/);
    const dma = doc.traceEvents.find((e) => e.ph === 'X' && e.name === 'DRAM_TO_SRAM')!;
    assert.equal((dma.args!.event as Record<string, unknown>).src_addr, 140733193388032);
  });

  it('exports the faulty trace too: broken pairs are said in args', async () => {
    const r = await runCli(['export', 'examples/faulty.trace.jsonl', '--to', 'chrome-trace']);
    assert.equal(r.code, 0, r.stderr);
    const doc = parsed(r.stdout);
    const m = modelCounts('examples/faulty.trace.jsonl');
    assert.equal(counts(doc).X, m.spans);
    assert.ok(doc.traceEvents.some((e) => String(e.args?.problem).includes('no end event')));
  });

  it('writes gzip for -o *.json.gz, the same document as the plain one', async () => {
    const gz = join(dir, 'nn.json.gz'), plain = join(dir, 'nn.json');
    for (const out of [gz, plain]) assert.equal((await runCli(['export', 'examples/nnapi-mobilenet.systrace', '--to', 'chrome-trace', '-o', out])).code, 0);
    const text = gunzipSync(readFileSync(gz)).toString('utf8');
    assert.equal(text, readFileSync(plain, 'utf8'));
    // Deflated at the fastest level (CPU is what an export of millions of events waits on), and said so in the header.
    const bytes = readFileSync(gz);
    assert.equal(bytes[8], 4, 'gzip XFL: fastest');
    assert.ok(text.length < 1 << 20, 'one piece');
    const body = deflateRawSync(Buffer.from(text), { level: 1, finishFlush: constants.Z_SYNC_FLUSH });
    assert.deepEqual(bytes.subarray(10, 10 + body.length), body);
    const doc = parsed(text);
    assert.equal(counts(doc).X, modelCounts('examples/nnapi-mobilenet.systrace').spans);
  });

  it('waits for a slow reader of its stdout instead of failing (a non-blocking pipe says EAGAIN)', async () => {
    const p = spawn(process.execPath, [CLI, 'export', 'examples/llm-layer.trace.jsonl', '--to', 'chrome-trace'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    p.stdout.pause();
    let err = '';
    p.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
    // The pipe's 64 KB fill up long before the 1.3 MB are written; the reader comes back later.
    await new Promise((r) => setTimeout(r, 1500));
    const chunks: Buffer[] = [];
    p.stdout.on('data', (b: Buffer) => chunks.push(b));
    p.stdout.resume();
    const code = await new Promise<number | null>((r) => p.on('close', r));
    assert.equal(code, 0, err);
    assert.equal(counts(parsed(Buffer.concat(chunks).toString('utf8'))).X, modelCounts('examples/llm-layer.trace.jsonl').spans);
  });

  it('refuses unusable arguments and files with exit 2 and one line', async () => {
    for (const [args, msg] of [
      [['export', 'examples/llm-layer.trace.jsonl'], /--to is required/],
      [['export', 'examples/llm-layer.trace.jsonl', '--to', 'otlp'], /--to takes chrome-trace, got "otlp"/],
      [['export', '--to', 'chrome-trace'], /no file given/],
      [['export', 'nope.trace.jsonl', '--to', 'chrome-trace'], /nope\.trace\.jsonl: no such file/],
      [['export', 'examples/golden.cmdq.json', '--to', 'chrome-trace'], /no timeline for this file type/],
    ] as const) {
      const r = await runCli([...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, msg);
    }
  });
});

describe('npu-trace check on Chrome trace JSON', () => {
  it('reports the planted problems of the faulty fixture, exit 1', async () => {
    const r = await runCli(['check', '--format', 'json', 'test/fixtures/chrome/faulty.trace.json']);
    assert.equal(r.code, 1);
    const [file] = JSON.parse(r.stdout) as { diagnostics: { code: string }[] }[];
    assert.equal(file.diagnostics.length, 17);
    assert.equal(new Set(file.diagnostics.map((d) => d.code)).size, 15);
  });

  it('checks a gzipped one-line PyTorch trace named plain .gz by its content, and exports it', async () => {
    const gz = join(dir, 'capture.gz');
    const oneLine = JSON.stringify(JSON.parse(readFileSync(join(ROOT, 'test/fixtures/chrome/pytorch.pt.trace.json'), 'utf8')));
    writeFileSync(gz, gzipSync(oneLine));
    const r = await runCli(['check', gz]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stdout, '');
    const x = await runCli(['export', gz, '--to', 'chrome-trace']);
    assert.equal(x.code, 0, x.stderr);
    const doc = parsed(x.stdout);
    assert.equal(doc.traceEvents.filter((e) => e.ph === 'X').length, 48);
    assert.deepEqual(doc.traceEvents.filter((e) => e.name === 'process_name').map((e) => e.args!.name), ['python3', 'GPU 0']);
  });

  it('exports a PyTorch trace with its ac2g flows: read back, the same arrows between the same slices', async () => {
    const src = join(dir, 'X.pt.trace.json');
    const text = pytorchFlowsTrace();
    writeFileSync(src, text);
    const x = await runCli(['export', src, '--to', 'chrome-trace']);
    assert.equal(x.code, 0, x.stderr);
    const doc = parsed(x.stdout);
    assert.deepEqual(counts(doc).s, 6);
    assert.deepEqual(doc.traceEvents.filter((e) => e.ph === 's').map((e) => e.name).sort(), ['ac2g', 'ac2g', 'ac2g', 'ac2g', 'fwdbwd', 'fwdbwd']);
    const before = arrowsOf(buildTimeline('X.pt.trace.json', text.split('\n'))!);
    assert.equal(before.length, 6);
    assert.deepEqual(arrowsOf(buildTimeline('back.trace.json', x.stdout.split('\n'))!), before);
  });
});
