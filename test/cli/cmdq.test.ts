// `npu-trace check` on CMDQ files: the bundled CLI in a child process.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CmdqDocument } from '../../core/cmdq/document';
import { defaultDiagnosticSettings } from '../../core/common/settings';
import { CLI, runCli } from './run';

const FIX = resolve(__dirname, '../fixtures/cmdq');
const fx = (name: string) => join(FIX, `${name}.cmdq.json`);
let dir = '';
before(() => {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first (npm test does)`);
  dir = mkdtempSync(join(tmpdir(), 'cmdq-cli-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('npu-trace check on CMDQ files', () => {
  it('the golden CMDQ: exit 0, no output', async () => {
    const r = await runCli(['check', fx('golden')]);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
  });

  it('text output: file:line:col severity code message, exit 1', async () => {
    const file = fx('self-dep');
    const r = await runCli(['check', file]);
    const line = readFileSync(file, 'utf8').split('\n')[6];
    assert.equal(r.stdout, `${file}:7:${line.indexOf('[2, 3]') + 5} error cmdq.self-dep Entry 3 depends on itself: it would wait forever\n`);
    assert.equal(r.code, 1);
  });

  it('warnings only exit 0', async () => {
    const r = await runCli(['check', fx('duplicate-dep')]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /:6:\d+ warning cmdq.duplicate-dep /);
  });

  it('json output equals what the editor shows, for every fixture', async () => {
    const names = ['invalid-json', 'unknown-opcode', 'missing-field', 'wrong-type', 'invalid-value', 'id-mismatch', 'duplicate-id', 'unknown-dep',
      'self-dep', 'forward-dep', 'dep-cycle', 'duplicate-dep', 'missing-end', 'end-not-last', 'end-deps', 'spm-overlap'];
    const r = await runCli(['check', '--format', 'json', ...names.map(fx)]);
    const out = JSON.parse(r.stdout) as { file: string; diagnostics: unknown[] }[];
    assert.equal(out.length, names.length);
    for (const [i, name] of names.entries()) {
      const editor = CmdqDocument.parse(readFileSync(fx(name), 'utf8')).diagnostics(defaultDiagnosticSettings)
        .map((d) => ({ range: d.range, severity: d.severity, code: d.code, message: d.message }));
      assert.equal(out[i].file, fx(name));
      assert.deepEqual(out[i].diagnostics, editor, name);
      assert.ok(editor.some((d) => d.code === `cmdq.${name}`), name);
    }
  });

  it('a plain .json whose first line opens a cmdq object is checked as CMDQ; CRLF keeps positions', async () => {
    // The CLI decides by file name and first line: `{ "cmdq": [` marks a plain .json as a CMDQ.
    const entries = readFileSync(fx('unknown-dep'), 'utf8').split('\n').slice(3, 9);
    const plain = join(dir, 'queue.json');
    writeFileSync(plain, ['{ "cmdq": [', ...entries, '] }', ''].join('\r\n'));
    const r = await runCli(['check', plain]);
    const col = entries[4].indexOf('42') + 1;
    assert.equal(r.stdout, `${plain}:6:${col} error cmdq.unknown-dep deps_before names 42, but no entry has id 42 (the queue has 6 entries)\n`);
  });

  it('--max-problems 1 shows the first problem, a warning, and still exits 1 for the errors after it', async () => {
    // A duplicate dep (warning) on entry 4, then an id-mismatch (error) on END.
    const text = readFileSync(fx('golden'), 'utf8').replace('"deps_before": [3]', '"deps_before": [3, 3]').replace('"id": 5', '"id": 9');
    const file = join(dir, 'capped.cmdq.json');
    writeFileSync(file, `\ufeff${text}`);
    const r = await runCli(['check', '--max-problems', '1', file]);
    const lines = r.stdout.trim().split('\n');
    assert.deepEqual(lines.map((l) => / (too-many-problems|cmdq\.[a-z-]+) /.exec(l)?.[1]), ['too-many-problems', 'cmdq.duplicate-dep']);
    assert.match(lines[0], / 1 further problems not shown \(limit 1,/);
    assert.equal(r.code, 1);
  });

  it('a truncated file: invalid-json at the end, exit 1, no crash', async () => {
    const full = readFileSync(fx('golden'), 'utf8');
    const file = join(dir, 'cut.cmdq.json');
    writeFileSync(file, full.slice(0, Math.floor(full.length / 2)));
    const r = await runCli(['check', file]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /error cmdq.invalid-json Invalid JSON: /);
    assert.equal(r.stderr, '');
  });
});
