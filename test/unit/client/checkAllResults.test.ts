import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { CHECK_ALL_GLOB, CHECK_ALL_NAMES, batches, checkArgs, checkFiles, excludeGlob, readBatch, summaryText } from '../../../client/checkAllResults';
import { formatByName } from '../../../core/detectFormat';
import { nameMatches } from '../../../core/fileHead';

const root = resolve(__dirname, '../../..');
const fixture = (p: string) => join(root, 'test/fixtures', p);
const cli = join(root, 'dist/cli.js');

/** One run of the built CLI as the extension makes it, its output read back. */
function runCli(files: string[], settings = {}) {
  const r = spawnSync(process.execPath, [cli, ...checkArgs(settings), ...files], { encoding: 'utf8' });
  return readBatch(files, r.stdout, r.stderr);
}
/** What the command does with one batch. */
const runBatch = (files: string[]) => checkFiles(files, async (f) => runCli(f), () => false);

describe('Check All Trace Files in Workspace: files looked for', () => {
  it('every name is a file the CLI checks by its name alone', () => {
    for (const g of CHECK_ALL_NAMES) {
      const f = formatByName(`dir/${g.replace('*', 'x')}`);
      assert.ok(f?.createChecker ?? f?.createByteChecker, g);
    }
    // A Perfetto protobuf trace is checked from its bytes: looked for as well.
    for (const n of ['a.perfetto-trace', 'a.pftrace', 'a.pftrace.gz']) assert.ok(CHECK_ALL_NAMES.some((g) => nameMatches(g, n)), n);
    assert.equal(CHECK_ALL_GLOB, `**/{${CHECK_ALL_NAMES.join(',')}}`);
    assert.ok(!/[{}]/.test(CHECK_ALL_NAMES.join(',')), 'VS Code globs do not nest brace groups');
  });

  it('every file extension and pattern of the served languages in package.json is looked for', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { languages: { id: string; extensions?: string[]; filenamePatterns?: string[] }[] } };
    for (const lang of pkg.contributes.languages) {
      const names = [...(lang.extensions ?? []).map((e) => `x${e}`), ...(lang.filenamePatterns ?? []).map((p) => p.replace('*', 'x'))];
      for (const n of names) assert.ok(CHECK_ALL_NAMES.some((g) => nameMatches(g, n)), `${lang.id}: ${n}`);
    }
  });

  it('merges files.exclude and search.exclude into one glob of the keys set to true', () => {
    assert.equal(excludeGlob({ '**/.git': true, '**/off': false }, { '**/node_modules': true, '**/.git': true }), '{**/.git,**/node_modules}');
    assert.equal(excludeGlob({ '**/*.js': { when: '$(basename).ts' } }, { '**/{a,b}': true }), undefined);
    assert.equal(excludeGlob(undefined, {}), undefined);
  });

  it('splits the files into runs of at most the batch size', () => {
    assert.deepEqual(batches([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
    assert.deepEqual(batches([], 2), []);
  });
});

describe('Check All Trace Files in Workspace: results of the real CLI', () => {
  it('reads 0-based ranges, severities and codes per file, a clean file with none', async () => {
    const dup = fixture('trace/duplicate-id.trace.jsonl');
    const golden = fixture('cmdq/golden.cmdq.json');
    const r = await runBatch([dup, golden, fixture('nnapi/nesting.systrace')]);
    assert.deepEqual(r.unreadable, []);
    assert.deepEqual(r.checked.map((c) => c.file), [dup, golden, fixture('nnapi/nesting.systrace')]);
    assert.deepEqual(r.checked[1].diagnostics, []);
    const d = r.checked[0].diagnostics;
    assert.ok(d.length > 0);
    // The text format prints 1-based positions of the same problem: the JSON ones are one less.
    const text = spawnSync(process.execPath, [cli, 'check', dup], { encoding: 'utf8' }).stdout.split('\n')[0];
    assert.equal(text, `${dup}:${d[0].range.start.line + 1}:${d[0].range.start.character + 1} ${d[0].severity} ${d[0].code} ${d[0].message}`);
    assert.ok(r.checked[2].diagnostics.some((x) => x.severity === 'error' || x.severity === 'warning'));
  });

  it('caps the problems per file as the editor setting npuTrace.diagnostics.maxProblems does', () => {
    const file = fixture('trace/too-many-problems.trace.jsonl');
    const all = runCli([file]).checked[0].diagnostics;
    const capped = runCli([file], { maxProblems: 2, maxLineBytes: 'x' }).checked[0].diagnostics;
    assert.ok(all.length > 3, String(all.length));
    assert.ok(capped.length <= 3 && capped.some((d) => d.code === 'too-many-problems'), JSON.stringify(capped));
    assert.deepEqual(checkArgs({ maxProblems: 0, maxLineBytes: 1.5 }), ['check', '--format', 'json']);
  });

  it('names an unreadable or vanished file with the reason the CLI gives, and still checks the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkall-'));
    const broken = join(dir, 'broken.trace.jsonl.gz');
    writeFileSync(broken, 'not gzip at all');
    const missing = join(dir, 'gone.cmdq.json');
    const golden = fixture('cmdq/golden.cmdq.json');
    const r = await runBatch([broken, golden, missing]);
    assert.deepEqual(r.checked.map((c) => c.file), [golden]);
    assert.deepEqual(r.unreadable.map((u) => u.file).sort(), [broken, missing].sort());
    for (const u of r.unreadable) assert.notEqual(u.message, 'not checked', u.file);
    const text = summaryText(r.checked, r.unreadable, 1, false);
    assert.match(text, /^Checked 1 file: 0 errors, 0 warnings\. 1 open file left to the editor\. 2 unreadable files: /);
    assert.ok(text.includes(broken) && text.includes(missing), text);
  });
});

describe('Check All Trace Files in Workspace: summary', () => {
  const diag = (severity: 'error' | 'warning' | 'hint') => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, severity, code: 'c', message: 'm' });

  it('counts errors and warnings over the files, and says when it was cancelled', () => {
    const checked = [{ file: 'a', diagnostics: [diag('error'), diag('warning'), diag('hint')] }, { file: 'b', diagnostics: [diag('error')] }];
    assert.equal(summaryText(checked, [], 0, false), 'Checked 2 files: 2 errors, 1 warning.');
    assert.equal(summaryText(checked, [], 0, true), 'Cancelled after 2 files: 2 errors, 1 warning.');
  });

  it('names at most three unreadable files, control characters made visible', () => {
    const bad = ['x\u001b[31m', 'b', 'c', 'd', 'e'].map((file) => ({ file, message: 'why' }));
    const text = summaryText([], bad, 0, false);
    assert.equal(text, 'Checked 0 files: 0 errors, 0 warnings. 5 unreadable files: x\\x1b[31m (why); b (why); c (why) and 2 more.');
  });

  it('ignores output that is not the JSON of the CLI, and calls every file without a result unreadable', () => {
    const r = readBatch(['a', 'b'], '[{"file":"a","diagnostics":[{"severity":"bogus"}]}]', 'npu-trace check: b: EACCES\n');
    assert.deepEqual(r, { checked: [{ file: 'a', diagnostics: [] }], unreadable: [{ file: 'b', message: 'EACCES' }] });
    assert.deepEqual(readBatch(['a'], '{not json', ''), { checked: [], unreadable: [{ file: 'a', message: 'not checked' }] });
  });
});
