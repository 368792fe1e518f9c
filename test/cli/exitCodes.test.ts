// The exit-code contract of `npu-trace check` (0 clean, 1 problems at or above --fail-on, 2
// unusable arguments or an unreadable file) and `--format github`, run on the built CLI.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { githubData, githubProperty } from '../../cli/github';
import { CLI, runCli } from './run';

let dir = '';
before(() => {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  dir = mkdtempSync(join(tmpdir(), 'exit-cli-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function tmp(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

const ev = (o: object) => `${JSON.stringify(o)}\n`;
const CLEAN = () => tmp('clean.trace.jsonl', ev({ event_type: 'IRQ_EMIT', t_cycle: 1 }));
/** Only a warning: time goes backwards. */
const WARNING = () => tmp('warning.trace.jsonl', ev({ event_type: 'IRQ_EMIT', t_cycle: 5 }) + ev({ event_type: 'IRQ_EMIT', t_cycle: 1 }));
/** Only an information: a Chrome trace whose ts is a string holding a number. */
const INFORMATION = () => tmp('info.trace.json', '{"traceEvents":[{"ph":"X","name":"a","ts":"23.5","dur":1,"pid":1,"tid":1}]}\n');
const ERROR = () => tmp('error.trace.jsonl', ev({ event_type: 'CMD_END', t_cycle: 1, cmd_id: 1, status: 'OK' }));

describe('npu-trace check exit codes', () => {
  const cases: [string, () => string, string[], number][] = [
    ['clean file', CLEAN, [], 0],
    ['clean file, --fail-on information', CLEAN, ['--fail-on', 'information'], 0],
    ['a warning, default threshold (error)', WARNING, [], 0],
    ['a warning, --fail-on error', WARNING, ['--fail-on=error'], 0],
    ['a warning, --fail-on warning', WARNING, ['--fail-on', 'warning'], 1],
    ['a warning, --fail-on information', WARNING, ['--fail-on', 'information'], 1],
    ['an information, --fail-on warning', INFORMATION, ['--fail-on', 'warning'], 0],
    ['an information, --fail-on information', INFORMATION, ['--fail-on', 'information'], 1],
    ['an error, default threshold', ERROR, [], 1],
    ['an error, --fail-on information', ERROR, ['--fail-on', 'information'], 1],
  ];
  for (const [name, make, opts, code] of cases) {
    it(`${name} → ${code}`, async () => {
      for (const format of ['text', 'json', 'sarif', 'github']) {
        const r = await runCli(['check', '--format', format, ...opts, make()]);
        assert.equal(r.code, code, `--format ${format}: ${r.stderr}`);
        assert.equal(r.stderr, '');
      }
    });
  }

  it('problems hidden by --max-problems: an error among them fails the default threshold; under --fail-on warning a capped list fails', async () => {
    const lines = [ev({ event_type: 'IRQ_EMIT', t_cycle: 9 }), ...Array.from({ length: 3 }, () => ev({ event_type: 'IRQ_EMIT', t_cycle: 1 }))];
    const warnings = tmp('capped.trace.jsonl', lines.join(''));
    assert.equal((await runCli(['check', '--max-problems', '1', warnings])).code, 0);
    assert.equal((await runCli(['check', '--max-problems', '1', '--fail-on', 'warning', warnings])).code, 1);
    const lateError = tmp('late-error.trace.jsonl', lines.join('') + ev({ event_type: 'CMD_END', t_cycle: 9, cmd_id: 1, status: 'OK' }));
    const r = await runCli(['check', '--max-problems', '1', lateError]);
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stdout, / error /);
  });

  it('an unreadable file exits 2 after the others are checked and shown, even with errors among them', async () => {
    const broken = tmp('broken.trace.jsonl.gz', 'not gzip\n');
    const unknown = tmp('notes.txt', 'hello\n');
    const error = ERROR();
    const r = await runCli(['check', broken, error, unknown]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `npu-trace check: ${broken}: incorrect header check\nnpu-trace check: ${unknown}: unknown file type (expected .trace.jsonl, .cmdq.json, a systrace, ...)\n`);
    assert.match(r.stdout, /^.*error\.trace\.jsonl:1:\d+ error trace\.unmatched-end /);
  });

  it('unusable arguments exit 2 before anything is checked', async () => {
    for (const args of [['--fail-on', 'hint', CLEAN()], ['--fail-on'], ['--format', 'xml', CLEAN()], [CLEAN(), join(dir, 'missing.trace.jsonl')]]) {
      const r = await runCli(['check', ...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^npu-trace check: /);
    }
  });
});

describe('npu-trace check --format github', () => {
  it('writes one workflow command per diagnostic, 1-based, with the code as title', async () => {
    const file = ERROR();
    const r = await runCli(['check', '--format', 'github', file, WARNING()]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, [
      `::error file=${githubProperty(file)},line=1,col=46,endLine=1,endColumn=46,title=trace.unmatched-end::CMD_END for cmd_id 1 has no open CMD_START before it`,
      `::warning file=${githubProperty(join(dir, 'warning.trace.jsonl'))},line=2,col=36,endLine=2,endColumn=36,title=trace.time-backwards::t_cycle 1 is lower than 5 on line 1: events should be in time order`,
      '',
    ].join('\n'));
  });

  it('informations are notices; a range over several lines has no columns', async () => {
    const info = await runCli(['check', '--format', 'github', INFORMATION()]);
    assert.match(info.stdout, /^::notice file=[^,]*info\.trace\.json,line=1,col=43,endLine=1,endColumn=\d+,title=chrome\.ts-string::"ts" is a string/);
    const cmdq = tmp('multi.cmdq.json', '{\n  "cmdq": {\n    "a": 1\n  }\n}\n');
    const r = await runCli(['check', '--format', 'github', cmdq]);
    assert.equal(r.stdout, `::error file=${githubProperty(cmdq)},line=2,endLine=4,title=cmdq.wrong-type::"cmdq" must be an array of entries, got an object\n`);
  });

  it('escapes a file\'s text so it can neither end the command nor start another', async () => {
    const file = tmp('w,a:b%.trace.jsonl', ev({ event_type: 'WARN', t_cycle: 1, component: 'TE', code: 'C', msg: '50% done\r\n::error file=x::forged\u001b[2K' }));
    const r = await runCli(['check', '--format', 'github', file]);
    const lines = r.stdout.split('\n').filter(Boolean);
    assert.equal(lines.length, 1);
    assert.ok(lines[0].startsWith(`::warning file=${dir.replace(/:/g, '%3A').replace(/,/g, '%2C')}/w%2Ca%3Ab%25.trace.jsonl,line=1,`), lines[0]);
    assert.ok(lines[0].endsWith('::Simulator warning [TE C]: 50%25 done\\x0a::error file=x::forged\\x1b[2K'), lines[0]);
  });

  it('an unreadable file is an error annotation too, before the others\' (exit 2)', async () => {
    const broken = tmp('broken.trace.jsonl.gz', 'not gzip\n');
    const r = await runCli(['check', '--format', 'github', broken, ERROR()]);
    assert.equal(r.code, 2);
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], `::error file=${githubProperty(broken)},title=npu-trace::${broken}: incorrect header check`);
    assert.match(lines[1], /^::error file=.*error\.trace\.jsonl,line=1,col=46,.*title=trace\.unmatched-end::/);
  });

  it('GitHub\'s escaping rules: %, CR, LF in data; also : and , in properties', () => {
    assert.equal(githubData('100%\r\nnext: a,b'), '100%25%0D%0Anext: a,b');
    assert.equal(githubProperty('100%\r\nnext: a,b'), '100%25%0D%0Anext%3A a%2Cb');
  });
});
