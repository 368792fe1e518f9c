// `npu-trace check` on directories and globs: which files a walk takes, in which order, and the
// summary line; plus the glob matcher itself.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { matchGlob, matchSegment } from '../../cli/targets';
import { CLI, runCli } from './run';

let dir = '';
const ev = (o: object) => `${JSON.stringify(o)}\n`;
const GOOD = ev({ event_type: 'IRQ_EMIT', t_cycle: 1 });
const BAD = ev({ event_type: 'CMD_END', t_cycle: 1, cmd_id: 1, status: 'OK' });
const CMDQ = '{ "cmdq": [ { "id": 0, "opcode": "END", "layer_id": null, "deps_before": [] } ] }\n';

function put(rel: string, content: string | Buffer) {
  const p = join(dir, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
}

before(() => {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  dir = mkdtempSync(join(tmpdir(), 'targets-cli-'));
  put('traces/b.trace.jsonl', BAD);
  put('traces/a.trace.jsonl', GOOD);
  put('traces/z.trace.jsonl.gz', gzipSync(BAD));
  put('traces/sub/q.cmdq.json', CMDQ);
  put('traces/sub/plain.json', CMDQ); // a CMDQ by its first line
  put('traces/sub/package.json', '{ "name": "x" }\n'); // not ours: skipped
  put('traces/sub/notes.txt', 'hello\n');
  put('traces/sub/deeper/r.cmdq.json', CMDQ);
  put('traces/.hidden/h.trace.jsonl', BAD);
  put('traces/node_modules/m.trace.jsonl', BAD);
  put('other/o.cmdq.json', CMDQ);
  symlinkSync(join(dir, 'traces'), join(dir, 'traces/sub/loop'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('matchSegment', () => {
  const cases: [string, string, boolean][] = [
    ['*.cmdq.json', 'a.cmdq.json', true], ['*.cmdq.json', 'a.cmdq.jsonc', false], ['*', '', true], ['?', '', false],
    ['a?c', 'abc', true], ['a?c', 'ac', false], ['*a*b', 'xaxxb', true], ['*a*b', 'xaxxbx', false], ['**', 'abc', true],
    ['a*', 'a', true], ['*.trace.jsonl*', 'x.trace.jsonl.gz', true], ['[ab]', '[ab]', true], ['[ab]', 'a', false],
  ];
  for (const [p, n, want] of cases) it(`${p} ${want ? 'matches' : 'does not match'} "${n}"`, () => assert.equal(matchSegment(p, n), want));

  it('falls back to the last * only: many stars against a long near-miss is pattern × name steps', () => {
    assert.equal(matchSegment(`${'*a'.repeat(30)}b`, 'a'.repeat(5000)), false);
    assert.equal(matchSegment(`${'*a'.repeat(30)}b`, `${'a'.repeat(5000)}b`), true);
  });
});

describe('matchGlob', () => {
  const glob = (g: string) => {
    const out: string[] = [];
    matchGlob(join(dir, g), () => true, out);
    return out.map((p) => p.slice(dir.length + 1));
  };
  it('* stays within a directory, ** crosses any number of them (also none)', () => {
    assert.deepEqual(glob('traces/*.trace.jsonl'), ['traces/a.trace.jsonl', 'traces/b.trace.jsonl']);
    assert.deepEqual(glob('traces/**/*.cmdq.json'), ['traces/sub/deeper/r.cmdq.json', 'traces/sub/q.cmdq.json']);
    assert.deepEqual(glob('**/*.cmdq.json'), ['other/o.cmdq.json', 'traces/sub/deeper/r.cmdq.json', 'traces/sub/q.cmdq.json']);
    assert.deepEqual(glob('traces/s?b/**/**/r.*'), ['traces/sub/deeper/r.cmdq.json']);
  });
});

describe('npu-trace check on directories and globs', () => {
  it('walks a directory for the files of the formats (by name or first line), in name order, skipping hidden, node_modules and linked directories; a summary on stderr', async () => {
    const r = await runCli(['check', 'traces/'], dir);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, [
      'traces/b.trace.jsonl:1:46 error trace.unmatched-end CMD_END for cmd_id 1 has no open CMD_START before it',
      'traces/z.trace.jsonl.gz:1:46 error trace.unmatched-end CMD_END for cmd_id 1 has no open CMD_START before it',
      '',
    ].join('\n'));
    assert.equal(r.stderr, 'npu-trace check: 6 files, 2 errors, 0 warnings, 0 information\n');
    const j = await runCli(['check', '--format', 'json', 'traces'], dir);
    assert.deepEqual((JSON.parse(j.stdout) as { file: string }[]).map((f) => f.file), [
      'traces/a.trace.jsonl', 'traces/b.trace.jsonl', 'traces/sub/deeper/r.cmdq.json', 'traces/sub/plain.json', 'traces/sub/q.cmdq.json', 'traces/z.trace.jsonl.gz',
    ]);
  });

  it('matches a quoted glob from the working directory; a file named by several arguments is checked once', async () => {
    const r = await runCli(['check', '--format', 'json', 'other', '**/*.cmdq.json', './traces/sub/q.cmdq.json', 'traces//sub/q.cmdq.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { file: string }[]).map((f) => f.file), ['other/o.cmdq.json', 'traces/sub/deeper/r.cmdq.json', 'traces/sub/q.cmdq.json']);
    assert.equal(r.stderr, 'npu-trace check: 3 files, 0 errors, 0 warnings, 0 information\n');
  });

  it('an unreadable file in a directory is reported and counted; the others are still checked (exit 2)', async () => {
    put('broken/x.trace.jsonl.gz', 'not gzip\n');
    put('broken/y.trace.jsonl', BAD);
    const r = await runCli(['check', 'broken'], dir);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, 'broken/y.trace.jsonl:1:46 error trace.unmatched-end CMD_END for cmd_id 1 has no open CMD_START before it\n');
    assert.equal(r.stderr, 'npu-trace check: broken/x.trace.jsonl.gz: incorrect header check\nnpu-trace check: 2 files, 1 error, 0 warnings, 0 information, 1 unreadable\n');
  });

  it('files named one by one print no summary, as before', async () => {
    const r = await runCli(['check', 'traces/a.trace.jsonl', 'traces/b.trace.jsonl'], dir);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, '');
  });
});
