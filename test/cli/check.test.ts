// `npu-trace check` as users run it: the bundled dist/cli.js in a child process.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { once } from 'node:events';
import { defaultDiagnosticSettings } from '../../core/common/settings';
import { TraceDocument } from '../../core/trace/document';
import { FIXTURES, fixture, tokenRange } from '../unit/trace/helpers';
import { spawn } from 'node:child_process';
import { CLI, runCli } from './run';

let dir = '';
before(() => {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first (npm test does)`);
  dir = mkdtempSync(join(tmpdir(), 'trace-cli-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const fx = (name: string) => join(FIXTURES, name);
function tmp(name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** What the editor shows for a text, in the CLI's JSON shape. */
function editorView(text: string) {
  return TraceDocument.parse(text).diagnostics(defaultDiagnosticSettings).map((d) => ({ range: d.range, severity: d.severity, code: d.code, message: d.message }));
}

describe('npu-trace check: text output', () => {
  it('prints file:line:col severity code message with 1-based line and column, exit 1 on errors', async () => {
    const file = fx('invalid-value.trace.jsonl');
    const r = await runCli(['check', file]);
    const [a] = tokenRange(fixture('invalid-value.trace.jsonl').split('\n')[1], '"FAIL"');
    assert.equal(r.stdout, `${file}:2:${a + 1} error trace.invalid-value "status" must be one of OK, ERROR, TIMEOUT, ABORTED; got the string "FAIL"\n`);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 1);
  });

  it('warnings only: exit 0, still printed', async () => {
    const r = await runCli(['check', fx('time-backwards.trace.jsonl')]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /time-backwards\.trace\.jsonl:3:41 warning trace\.time-backwards t_cycle 230 is lower than 236/);
  });

  it('a clean file and an empty file: exit 0, no output', async () => {
    const r = await runCli(['check', tmp('clean.trace.jsonl', '{"event_type":"IRQ_EMIT","t_cycle":1}\n'), tmp('empty.trace.jsonl', '')]);
    assert.deepEqual(r, { code: 0, stdout: '', stderr: '' });
  });

  it('a trace message with line breaks stays on one output line, the breaks shown as \\x0a', async () => {
    const file = tmp('multi.trace.jsonl', '{"event_type":"WARN","t_cycle":1,"component":"TE","code":"X","msg":"first\\nsecond\\r\\nthird"}\n');
    const r = await runCli(['check', file]);
    assert.equal(r.stdout, `${file}:1:68 warning trace.reported-warning Simulator warning [TE X]: first\\x0asecond\\x0athird\n`);
    assert.equal(r.code, 0);
  });

  it('several files: each diagnostic names its file, exit 1 if any has an error', async () => {
    const r = await runCli(['check', fx('reported-warning.trace.jsonl'), fx('unknown-cmd.trace.jsonl'), fx('valid-all-events.trace.jsonl')]);
    assert.equal(r.code, 1);
    const files = r.stdout.trim().split('\n').map((l) => l.split(':')[0].split('/').pop());
    assert.deepEqual(files, ['reported-warning.trace.jsonl', 'unknown-cmd.trace.jsonl', 'valid-all-events.trace.jsonl', 'valid-all-events.trace.jsonl']);
  });

  it('an error beyond the cap still makes the exit status 1', async () => {
    const lines = Array.from({ length: 6 }, (_, i) => `{"event_type":"IRQ_EMIT","t_cycle":${100 - i}}`);
    lines.push('{"event_type":"IRQ_EMIT","t_cycle":"late"}');
    const r = await runCli(['check', '--max-problems', '2', tmp('late-error.trace.jsonl', lines.join('\n'))]);
    assert.doesNotMatch(r.stdout, / error /, 'the error is not among the two shown');
    assert.match(r.stdout, /4 further problems not shown/);
    assert.equal(r.code, 1);
  });

  it('an unknown cmd_id named on many lines: the cap keeps the first, counts the rest, and the run fails', async () => {
    // The checker keeps at most --max-problems of the lines naming one unknown cmd_id.
    const lines = ['{"event_type":"CMD_ENQUEUE","t_cycle":0,"cmd_id":1,"cmd_type":"X"}'];
    for (let i = 1; i <= 5; i++) lines.push(`{"event_type":"CMD_START","t_cycle":${i},"cmd_id":9}`, `{"event_type":"CMD_END","t_cycle":${i},"cmd_id":9}`);
    const file = tmp('refs.trace.jsonl', lines.join('\n'));
    const r = await runCli(['check', '--max-problems=3', file]);
    assert.equal(r.code, 1);
    assert.deepEqual(r.stdout.trim().split('\n').map((l) => l.replace(`${file}:`, '')), [
      '1:1 information too-many-problems 7 further problems not shown (limit 3, setting npuTrace.diagnostics.maxProblems)',
      '2:48 error trace.unknown-cmd cmd_id 9 is never enqueued: no CMD_ENQUEUE in this trace has it',
      '3:46 error trace.unknown-cmd cmd_id 9 is never enqueued: no CMD_ENQUEUE in this trace has it',
      '4:48 error trace.unknown-cmd cmd_id 9 is never enqueued: no CMD_ENQUEUE in this trace has it',
    ]);
    const all = await runCli(['check', file]);
    assert.equal(all.stdout.trim().split('\n').length, 10);
  });

  it('file names and messages reach the terminal with control characters escaped', async () => {
    const file = tmp('esc\u001b[2K.trace.jsonl', '{"event_type":"WARN","t_cycle":1,"component":"TE","code":"X","msg":"\\u001b]0;x\\u0007\\u001b[2Kforged"}\n');
    const r = await runCli(['check', file]);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `${file.replace('\u001b', '\\x1b')}:1:68 warning trace.reported-warning Simulator warning [TE X]: \\x1b]0;x\\x07\\x1b[2Kforged\n`);
    // eslint-disable-next-line no-control-regex -- no control character but the line end may be printed
    assert.doesNotMatch(r.stdout, /[\u0000-\u0009\u000b-\u001f]/);
  });

    it('--max-problems caps and summarises', async () => {
    const r = await runCli(['check', '--max-problems', '2', fx('unmatched-end.trace.jsonl'), fx('too-many-problems.trace.jsonl')]);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1 + 3);
    assert.match(lines[1], /too-many-problems\.trace\.jsonl:1:1 information too-many-problems 1003 further problems not shown \(limit 2/);
  });
});

describe('npu-trace check --format json', () => {
  it('has exactly the shape of the issue, with 0-based positions, and equals what the editor shows for every fixture', async () => {
    const names = readdirSync(FIXTURES).filter((n) => n.endsWith('.trace.jsonl')).sort();
    assert.ok(names.length >= 18);
    const r = await runCli(['check', '--format', 'json', ...names.map(fx)]);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout) as { file: string; diagnostics: unknown[] }[];
    assert.deepEqual(out.map((f) => f.file), names.map(fx));
    out.forEach((f, i) => {
      assert.deepEqual(Object.keys(f), ['file', 'diagnostics']);
      assert.deepEqual(f.diagnostics, editorView(fixture(names[i])), names[i]);
      for (const d of f.diagnostics as Record<string, unknown>[]) assert.deepEqual(Object.keys(d), ['range', 'severity', 'code', 'message']);
    });
    const first = out.find((f) => f.file.endsWith('invalid-value.trace.jsonl'))!.diagnostics[0];
    const [a, b] = tokenRange(fixture('invalid-value.trace.jsonl').split('\n')[1], '"FAIL"');
    assert.deepEqual(first, { range: { start: { line: 1, character: a }, end: { line: 1, character: b } }, severity: 'error', code: 'trace.invalid-value',
      message: '"status" must be one of OK, ERROR, TIMEOUT, ABORTED; got the string "FAIL"' });
  });

  it('--format=json works too; a clean file gives an empty list', async () => {
    const r = await runCli(['check', '--format=json', tmp('ok.trace.jsonl', '{"event_type":"IRQ_EMIT","t_cycle":1}')]);
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(r.stdout), [{ file: join(dir, 'ok.trace.jsonl'), diagnostics: [] }]);
  });
});

describe('npu-trace check: unusable arguments exit 2 with a message', () => {
  const cases: [string, string[], RegExp][] = [
    ['unknown option', ['check', '--frobnicate', 'x.trace.jsonl'], /unknown option --frobnicate/],
    ['bad --format value', ['check', '--format', 'xml', 'x.trace.jsonl'], /--format takes text, json, sarif or github, got xml/],
    ['--format without a value', ['check', '--format'], /--format takes text, json, sarif or github, got nothing/],
    ['missing file', ['check', 'does-not-exist.trace.jsonl'], /does-not-exist\.trace\.jsonl: no such file/],
    ['no files', ['check'], /no files given/],
    // A directory is walked (test/cli/targets.test.ts); one without a file of ours names nothing.
    ['a directory without a trace', ['check', 'cli'], /cli: no trace, CMDQ, systrace, InferScope or Chrome trace file in this directory/],
    ['a glob matching nothing', ['check', 'test/**/*.nothing'], /test\/\*\*\/\*\.nothing: matches no trace/],
    ['bad --fail-on', ['check', '--fail-on', 'hint', 'x'], /--fail-on takes error, warning or information, got hint/],
    ['bad --max-problems', ['check', '--max-problems', '0', 'x'], /--max-problems takes a positive whole number/],
    ['--max-problems without a value', ['check', '--max-problems'], /--max-problems takes a positive whole number, got nothing/],
    ['bad --max-line-bytes', ['check', '--max-line-bytes=1.5', 'x'], /--max-line-bytes takes a positive whole number, got 1\.5/],
    ['no command', [], /missing command/],
    ['unknown command', ['lint', 'x'], /unknown command 'lint'/],
  ];
  for (const [name, args, msg] of cases) {
    it(name, async () => {
      const r = await runCli(args);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, msg);
      assert.equal(r.stdout, '');
    });
  }

  it('a file of unknown type', async () => {
    const r = await runCli(['check', tmp('notes.txt', 'hello\n')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /notes\.txt: unknown file type/);
  });

  it('a broken .gz names the file', async () => {
    const file = tmp('broken.trace.jsonl.gz', 'not gzip at all\n');
    const r = await runCli(['check', file]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `npu-trace check: ${file}: incorrect header check\n`);
  });

  it('--help prints the usage and exits 0', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /npu-trace check \[--format text\|json\|sarif\|github\] \[--fail-on error\|warning\|information\]/);
  });
});

describe('npu-trace check: file encodings and sizes', () => {
  const text = fixture('end-before-start.trace.jsonl') + fixture('unknown-cmd.trace.jsonl') + fixture('invalid-value.trace.jsonl');
  const json = async (file: string) => {
    const r = await runCli(['check', '--format', 'json', file]);
    return (JSON.parse(r.stdout) as { diagnostics: unknown[] }[])[0].diagnostics;
  };

  it('a .gz file is read decompressed', async () => {
    assert.deepEqual(await json(tmp('a.trace.jsonl.gz', gzipSync(text))), editorView(text));
  });

  it('CRLF and CR line ends give the same diagnostics as LF', async () => {
    const want = editorView(text);
    assert.ok(want.length >= 4);
    assert.deepEqual(await json(tmp('crlf.trace.jsonl', text.replace(/\n/g, '\r\n'))), want);
    assert.deepEqual(await json(tmp('cr.trace.jsonl', text.replace(/\n/g, '\r'))), want);
    assert.deepEqual(await json(tmp('crlf.trace.jsonl.gz', gzipSync(text.replace(/\n/g, '\r\n')))), want);
  });

  it('a UTF-8 BOM is not part of line 1 (the editor drops it too)', async () => {
    const bad = fixture('invalid-value.trace.jsonl').trim().split('\n').reverse().join('\n');
    assert.match(bad, /^\{"event_type":"CMD_END"/);
    assert.deepEqual(await json(tmp('bom.trace.jsonl', '\uFEFF' + bad)), editorView(bad));
  });

  it('binary bytes and invalid UTF-8: invalid-json, exit 1, no crash', async () => {
    const file = tmp('bin.trace.jsonl', Buffer.concat([Buffer.from('{"event_type":"IRQ_EMIT","t_cycle":1}\n'), Buffer.from([0xff, 0x00, 0xc3, 0x28, 0x0a, 0x7b, 0x80])]));
    const r = await runCli(['check', file]);
    assert.equal(r.code, 1);
    assert.deepEqual(r.stdout.trim().split('\n').map((l) => l.replace(file, 'F').split(' ').slice(0, 3).join(' ')), ['F:2:1 error trace.invalid-json', 'F:3:2 error trace.invalid-json']);
  });

  it('a line nesting deeper than 10000 levels: one trace.too-deep, not parsed (8 MB of [ took 1.4 s each)', async () => {
    const file = tmp('deep.trace.jsonl', ['['.repeat(8 << 20), '{"event_type":"IRQ_EMIT","t_cycle":"2"}', '['.repeat(10_000) + ']'.repeat(10_000)].join('\n'));
    const r = await runCli(['check', file]);
    assert.equal(r.code, 1);
    assert.deepEqual(r.stdout.trim().split('\n').map((l) => l.replace(`${file}:`, '')), [
      '1:1 error trace.too-deep Line 1 nests arrays and objects more than 10000 levels deep: it is not checked',
      '2:36 error trace.wrong-type "t_cycle" must be an integer, got the string "2"',
      '3:1 error trace.not-object Each line must be one JSON object (an event); this line is an array',
    ]);
  });

  it('a 10 MB single line is checked under a higher --max-line-bytes, and skipped with one diagnostic under the default 8 MB', async () => {
    const line = `{"event_type":"IRQ_EMIT","t_cycle":1,"pad":"${'x'.repeat(10 << 20)}","irq_line":-1}`;
    const file = tmp('wide.trace.jsonl', `${line}\n{"event_type":"IRQ_EMIT","t_cycle":"2"}`);
    const wrongType = `${file}:2:36 error trace.wrong-type "t_cycle" must be an integer, got the string "2"`;
    const r = await runCli(['check', '--max-line-bytes=16000000', file]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, `${file}:1:${line.lastIndexOf('-1') + 1} error trace.invalid-value "irq_line" must be >= 0, got number -1\n${wrongType}\n`);
    const d = await runCli(['check', file]);
    assert.equal(d.code, 1);
    assert.equal(d.stdout, `${file}:1:1 error trace.line-too-long Line 1 is 10 MB long, over the limit of 8 MB (setting npuTrace.diagnostics.maxLineBytes, npu-trace check --max-line-bytes): it is not checked\n${wrongType}\n`);
  });

  it('streams a 200 000-line file and reports problems on the right lines', async () => {
    const file = join(dir, 'big.trace.jsonl');
    const out = createWriteStream(file);
    const N = 40_000;
    for (let i = 0; i < N; i++) {
      const t = i * 10;
      out.write(`{"event_type":"CMD_ENQUEUE","t_cycle":${t},"cmd_id":${i},"cmd_type":"MATMUL","phase":"MLP"}\n{"event_type":"CMD_START","t_cycle":${t + 1},"cmd_id":${i}}\n` +
        `{"event_type":"DMA_START","t_cycle":${t + 2},"tx_id":${i},"channel":0,"size_bytes":4096,"cmd_id":${i}}\n{"event_type":"DMA_END","t_cycle":${t + 3},"tx_id":${i},"cmd_id":${i}}\n` +
        `{"event_type":"CMD_END","t_cycle":${t + 4},"cmd_id":${i},"status":"OK"}\n`);
    }
    // Line 200 001 names a command that was never enqueued nor started.
    out.write(`{"event_type":"CMD_END","t_cycle":${N * 10},"cmd_id":${N}}\n`);
    out.end();
    await once(out, 'close');
    const r = await runCli(['check', file]);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 1);
    const col = '{"event_type":"CMD_END","t_cycle":400000,"cmd_id":'.length + 1;
    assert.deepEqual(r.stdout.trim().split('\n').map((l) => l.slice(file.length + 1).split(' ').slice(0, 3).join(' ')),
      // Same position: ordered by code.
      [`200001:${col} error trace.unknown-cmd`, `200001:${col} error trace.unmatched-end`]);
  });
});

describe('npu-trace check | head', () => {
  it('a reader that closes the pipe early does not make it crash', async () => {
    const f = fx('too-many-problems.trace.jsonl');
    // About 500 KB of output: far more than a pipe buffer holds.
    const p = spawn(process.execPath, [CLI, 'check', '--max-problems', '100000', f, f, f, f, f], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.stdout.once('data', () => p.stdout.destroy());
    const [code] = (await once(p, 'close')) as [number | null];
    assert.equal(stderr, '');
    assert.equal(code, 1);
  });
});
