// The streaming CLI on hostile files: lines without end, gzip bombs, cut-off and padded .gz,
// floods of problems and terminal escapes. Bounds are generous: they hold far from a crash or a
// hang, not as a measure of speed. Inputs are generated in a scratch directory, never committed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { LspClient } from '../lsp/lspClient';
import { cpuMsOf, peakRssMb, runCliLimited, scratch, type LimitedRun } from './limits';

const MAX_MB = 500;
const MAX_MS = 20_000;
const MiB = 1 << 20;

let dir = '';
let done = () => {};
before(() => ({ dir, done } = scratch()));
after(() => done());

/** `total` bytes of `head` then `byte` repeated, gzipped as it is generated (nothing that size is ever held). */
async function gzipOf(name: string, byte: number, total: number, head = ''): Promise<string> {
  const file = join(dir, name);
  const block = Buffer.alloc(MiB, byte);
  async function* gen() {
    if (head) yield Buffer.from(head);
    for (let n = 0; n < total; n += block.length) yield block;
  }
  await pipeline(gen(), createGzip({ level: constants.Z_BEST_SPEED }), createWriteStream(file));
  return file;
}

function bounded(r: LimitedRun, what: string): void {
  assert.ok(!r.timedOut, `${what}: still running after ${MAX_MS} ms`);
  assert.ok(r.peakMb <= MAX_MB, `${what}: peak RSS ${Math.round(r.peakMb)} MB > ${MAX_MB} MB`);
}

const tooLong = (file: string, size: string) =>
  `${file}:1:1 error trace.line-too-long Line 1 is ${size} long, over the limit of 8 MB (setting npuTrace.diagnostics.maxLineBytes, npu-trace check --max-line-bytes): it is not checked\n`;

describe('npu-trace check on hostile streams', () => {
  it('200 MB of "[" on one line (a 1 MB .gz): one trace.line-too-long, the line never read', async () => {
    const file = await gzipOf('brackets.trace.jsonl.gz', 0x5b, 200 * MiB);
    const r = await runCliLimited(['check', file], MAX_MS);
    bounded(r, '200 MB line');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, tooLong(file, '200 MB'));
    assert.equal(r.code, 1);
  });

  it('1 GB of zeros gzipped: one trace.line-too-long, bounded memory', async () => {
    const file = await gzipOf('zeros.trace.jsonl.gz', 0, 1024 * MiB);
    const r = await runCliLimited(['check', file], MAX_MS);
    bounded(r, '1 GB of zeros');
    assert.equal(r.stdout, tooLong(file, '1024 MB'));
    assert.equal(r.code, 1);
  });

  it('256 MB of newlines gzipped: empty lines cost nothing but reading them', async () => {
    const file = await gzipOf('newlines.trace.jsonl.gz', 10, 256 * MiB, '{"event_type":"IRQ_EMIT","t_cycle":"x"}\n');
    const r = await runCliLimited(['check', file], MAX_MS);
    bounded(r, '256 MB of newlines');
    assert.equal(r.stdout, `${file}:1:36 error trace.wrong-type "t_cycle" must be an integer, got the string "x"\n`);
    assert.equal(r.code, 1);
  });

  it('a cut-off .gz: the problems of the part that decoded, and file.truncated on the cut line', async () => {
    const lines = ['{"event_type":"IRQ_EMIT","t_cycle":"early"}'];
    for (let i = 1; i < 200_000; i++) lines.push(`{"event_type":"IRQ_EMIT","t_cycle":${i},"irq_line":${(i * 7919) % 1000}}`);
    const whole = gzipSync(lines.join('\n') + '\n');
    const file = join(dir, 'cut.trace.jsonl.gz');
    writeFileSync(file, whole.subarray(0, whole.length >> 1));
    const r = await runCliLimited(['check', file], MAX_MS);
    bounded(r, 'cut-off .gz');
    assert.equal(r.stderr, '');
    const out = r.stdout.trim().split('\n');
    assert.equal(out.length, 2, r.stdout);
    assert.equal(out[0], `${file}:1:36 error trace.wrong-type "t_cycle" must be an integer, got the string "early"`);
    const cut = /^.*:(\d+):1 error file\.truncated The gzip data ends in the middle of the file \(cut off or corrupt\): line (\d+) and anything after it are missing; the lines before it were checked$/.exec(out[1]);
    assert.ok(cut, out[1]);
    assert.equal(cut[1], cut[2]);
    const at = Number(cut[1]);
    assert.ok(at > 1000 && at < 200_000, `cut at line ${at}`);
    assert.equal(r.code, 1);
  });

  it('garbage after the gzip data: a warning, and every line before it is checked (the last one too)', async () => {
    const text = '{"event_type":"IRQ_EMIT","t_cycle":1}\n'.repeat(50_000) + '{"event_type":"IRQ_EMIT","t_cycle":"last"}\n';
    const gz = gzipSync(text);
    const file = join(dir, 'garbage.trace.jsonl.gz');
    writeFileSync(file, Buffer.concat([gz, Buffer.from('\u0000\u0000this is not gzip')]));
    const r = await runCliLimited(['check', file], MAX_MS);
    bounded(r, 'trailing garbage');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, [
      `${file}:50001:36 error trace.wrong-type "t_cycle" must be an integer, got the string "last"`,
      `${file}:50002:1 warning file.trailing-garbage Bytes after the end of the gzip data (from byte ${gz.length + 2} of the file) are not gzip and were ignored, as gzip -d does`,
    ].join('\n') + '\n');
    assert.equal(r.code, 1);
    // Concatenated members and zero padding are one valid stream.
    writeFileSync(file, Buffer.concat([gz, gzipSync('{"event_type":"IRQ_EMIT","t_cycle":2}\n'), Buffer.alloc(512)]));
    const ok = await runCliLimited(['check', file], MAX_MS);
    assert.equal(ok.stdout, `${file}:50001:36 error trace.wrong-type "t_cycle" must be an integer, got the string "last"\n`);
  });

  it('1M JOB_ISSUE lines with no CMD_ENQUEUE and --max-problems 1: a million problems found, one kept, bounded memory', async () => {
    const file = join(dir, 'jobs.trace.jsonl');
    const out = createWriteStream(file);
    for (let i = 0; i < 1_000_000; i += 1000) {
      let chunk = '';
      for (let j = i; j < i + 1000; j++) chunk += `{"event_type":"JOB_ISSUE","t_cycle":${j},"job_id":${j % 64},"cmd_id":${j % 64}}\n`;
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((r) => out.end(r));
    const r = await runCliLimited(['check', '--max-problems', '1', file], MAX_MS);
    bounded(r, '1M problems');
    assert.equal(r.stdout, [
      `${file}:1:1 information too-many-problems 999999 further problems not shown (limit 1, setting npuTrace.diagnostics.maxProblems)`,
      `${file}:65:49 error trace.duplicate-id job_id 0 is issued again; it was first issued on line 1`,
    ].join('\n') + '\n');
    assert.equal(r.code, 1);
  });

  it('a CMDQ over 64 MB is not held whole: one file.too-large', async () => {
    const file = join(dir, 'huge.cmdq.json');
    const out = createWriteStream(file);
    out.write('{"metadata":{"graph_name":"g","version":"1","generated_by":"t"},"cmdq":[\n');
    const entry = (i: number) => `{"id":${i},"opcode":"DMA_LOAD_TILE","layer_id":"l","deps_before":[],"tensor_role":"ifm","qbits":8,"dram_addr":0,"spm_bank":0,"spm_offset":0,"num_elements":1,"pad":"${'p'.repeat(400)}"},\n`;
    for (let i = 0; i < 150_000; i += 1000) {
      let chunk = '';
      for (let j = i; j < i + 1000; j++) chunk += entry(j);
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((r) => out.end('{"id":150000,"opcode":"END","layer_id":null,"deps_before":[]}]}\n', () => r()));
    const r = await runCliLimited(['check', file], MAX_MS);
    bounded(r, '80 MB CMDQ');
    assert.match(r.stdout, /^.*:1:1 error file\.too-large The file is 8\d\.\d MB \(150003 lines\), over the 64 MB a document read whole may have: it is not checked\n$/);
    assert.equal(r.code, 1);
  });

  it('an ESC/OSC sequence in a WARN msg reaches the terminal escaped', async () => {
    const file = join(dir, 'osc.trace.jsonl');
    writeFileSync(file, '{"event_type":"WARN","t_cycle":1,"component":"TE","code":"X","msg":"\\u001b]0;x\\u0007\\u001b[2K\\rok: all checks passed"}\n');
    const r = await runCliLimited(['check', file], MAX_MS);
    bounded(r, 'escape sequences');
    assert.equal(r.stdout, `${file}:1:68 warning trace.reported-warning Simulator warning [TE X]: \\x1b]0;x\\x07\\x1b[2K\\x0aok: all checks passed\n`);
    assert.ok(!readFileSync(file, 'utf8').includes('\u001b'), 'the file holds JSON escapes; the ESC byte comes from parsing');
  });
});

describe('the language server on a 20 MB line', () => {
  it('gives it one trace.line-too-long, and an edit elsewhere stays cheap', async () => {
    const c = await LspClient.start();
    try {
      const uri = 'file:///wide.trace.jsonl';
      const lines = Array.from({ length: 2000 }, (_, i) => `{"event_type":"IRQ_EMIT","t_cycle":${i},"irq_line":1}`);
      lines[1000] = '['.repeat(20 * MiB);
      // The server's own CPU time, not wall time: on a loaded machine wall time measures the neighbours.
      const pid = c.proc.pid!;
      const cpu0 = cpuMsOf(pid);
      const first = await c.open(uri, 'npu-trace', lines.join('\n'));
      const openMs = cpuMsOf(pid) - cpu0;
      assert.deepEqual(first.map((d) => [d.code, d.range.start.line]), [['trace.line-too-long', 1000]]);
      assert.match(first[0].message, /^Line 1001 is 20971520 characters long, over the limit of 8388608 characters/);
      const cpu1 = cpuMsOf(pid);
      const at = lines[1500].indexOf('1}');
      for (let k = 0; k < 5; k++) {
        // Typing a wrong value, and undoing it, 500 lines below the wide one.
        const range = { start: { line: 1500, character: at }, end: { line: 1500, character: at + (k % 2 ? 3 : 1) } };
        const d = await c.change(uri, [{ range, text: k % 2 ? '1' : '"x"' }]);
        assert.deepEqual(d.map((x) => [x.code, x.range.start.line]), k % 2 ? [['trace.line-too-long', 1000]] : [['trace.line-too-long', 1000], ['trace.wrong-type', 1500]]);
      }
      const editMs = (cpuMsOf(pid) - cpu1) / 5;
      const peak = peakRssMb(c.proc.pid!);
      assert.ok(openMs < MAX_MS, `open took ${Math.round(openMs)} ms of the server's CPU`);
      assert.ok(editMs < 1000, `an edit took ${Math.round(editMs)} ms of the server's CPU`);
      assert.ok(peak <= MAX_MB, `server peak RSS ${Math.round(peak)} MB`);
      console.log(`20 MB line: open ${Math.round(openMs)} ms CPU, edit ${Math.round(editMs)} ms CPU, server peak ${Math.round(peak)} MB`);
    } finally {
      await c.stop();
    }
  });
});
