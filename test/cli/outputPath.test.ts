// Where the CLI writes (#29 item 17): an output path that is a symbolic link is refused, since
// writing would replace the file it points to, and a --run-id with a line break is refused; both
// unless --force. Every command that writes a file is tried.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli } from './run';

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'out-path-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const TRACE = join(ROOT, 'examples/llm-layer.trace.jsonl');
const INFERSCOPE = join(ROOT, 'examples/llm-requests.inferscope.json');
const KPROF = join(ROOT, 'examples/spec.kprof.npy');
const PRECIOUS = 'precious: must survive\n';

/** A file the user cares about and a link to it where the output goes. */
function trap(name: string): { link: string; target: string } {
  const target = join(dir, `${name}.target`);
  writeFileSync(target, PRECIOUS);
  const link = join(dir, name);
  symlinkSync(target, link);
  return { link, target };
}

const commands: [string, (out: string) => string[], string][] = [
  ['export --to chrome-trace -o', (out) => ['export', TRACE, '--to', 'chrome-trace', '-o', out], '-o'],
  ['analyze -o', (out) => ['analyze', '--report', 'md', '-o', out, INFERSCOPE], '-o'],
  ['kprof --chrome-trace', (out) => ['kprof', '--chrome-trace', out, KPROF], '--chrome-trace'],
];

describe('an output path that is a symbolic link', () => {
  for (const [name, args, option] of commands) {
    it(`${name}: refused with exit 2, the link's target untouched; --force writes through it`, async () => {
      const { link, target } = trap(`${name.replace(/\W+/g, '-')}.out`);
      const r = await runCli(args(link));
      assert.equal(r.code, 2, r.stderr);
      assert.ok(r.stderr.includes(`${option} ${link} is a symbolic link (to ${target}): writing would replace what it points to; give another path, or --force to write through the link`), r.stderr);
      assert.equal(readFileSync(target, 'utf8'), PRECIOUS);
      const forced = await runCli([...args(link), '--force']);
      assert.ok(forced.code === 0 || forced.code === 1, forced.stderr);
      assert.notEqual(readFileSync(target, 'utf8'), PRECIOUS, 'with --force the link is written through');
    });
  }

  it('a link that points nowhere yet is refused too (the write would create its target)', async () => {
    const link = join(dir, 'dangling.json');
    const target = join(dir, 'nowhere', '..', 'created-by-write.json');
    symlinkSync(target, link);
    const r = await runCli(['export', TRACE, '--to', 'chrome-trace', '-o', link]);
    assert.equal(r.code, 2, r.stderr);
    assert.ok(!existsSync(join(dir, 'created-by-write.json')));
  });

  it('export --to parquet: an output directory or a run directory that is a link is refused', async () => {
    const real = join(dir, 'pq-real');
    mkdirSync(real);
    const outLink = join(dir, 'pq-link');
    symlinkSync(real, outLink);
    const r = await runCli(['export', TRACE, '--to', 'parquet', '-o', outLink]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /-o .*pq-link is a symbolic link/);
    assert.deepEqual(readdirSync(real), []);
    const out = join(dir, 'pq');
    mkdirSync(out);
    symlinkSync(real, join(out, 'run1'));
    const r2 = await runCli(['export', TRACE, '--to', 'parquet', '-o', out, '--run-id', 'run1']);
    assert.equal(r2.code, 2, r2.stderr);
    assert.match(r2.stderr, /run1 is a symbolic link/);
    assert.deepEqual(readdirSync(real), []);
  });
});

describe('--run-id', () => {
  it('with a line break: refused, nothing written; --force keeps it', async () => {
    const out = join(dir, 'pq-nl');
    mkdirSync(out);
    const r = await runCli(['export', TRACE, '--to', 'parquet', '-o', out, '--run-id', 'a\nok: forged']);
    assert.equal(r.code, 2, r.stderr);
    assert.ok(r.stderr.includes('--run-id a\\x0aok: forged holds a control or bidirectional-text character; give a plain name, or --force to keep it'), r.stderr);
    assert.ok(!r.stderr.includes('\n' + 'ok: forged'), 'the line break is not printed');
    assert.deepEqual(readdirSync(out), []);
    const forced = await runCli(['export', TRACE, '--to', 'parquet', '-o', out, '--run-id', 'a\nok: forged', '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.deepEqual(readdirSync(out), ['a\nok: forged']);
  });
});
