// The CLI bundle's V8 code cache (cli/loadBundle.ts): written by a run with NPU_WRITE_CODE_CACHE=1,
// used by the next runs, and never for a bundle other than the one it was made from — V8 itself
// checks only the source's length, so a rebuilt bundle of the same length would run the old code.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './run';

let dir = '';
before(() => {
  assert.ok(existsSync(join(ROOT, 'dist', 'cliMain.js')), 'dist/ is missing: run npm run build first (npm test does)');
  dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  for (const f of ['cli.js', 'cliMain.js']) copyFileSync(join(ROOT, 'dist', f), join(dir, f));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const help = (env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [join(dir, 'cli.js'), '--help'], { encoding: 'utf8', env: { ...process.env, ...env } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
};

describe('the CLI bundle with its code cache', () => {
  it('is written by a run asked to, then used; a bundle changed since is compiled anew', () => {
    const bundle = join(dir, 'cliMain.js');
    const cache = `${bundle}.cache`;
    assert.match(help(), /^Usage:/, 'without a cache');
    assert.equal(existsSync(cache), false);
    assert.match(help({ NPU_WRITE_CODE_CACHE: '1' }), /^Usage:/);
    const data = readFileSync(cache);
    const st = statSync(bundle);
    assert.equal(data.toString('latin1', 0, data.indexOf(10)), `${st.size} ${st.mtimeMs}`);
    assert.match(help(), /^Usage:/, 'with the cache');

    // The same length, other code: compiled from the file, not taken from the cache.
    const source = readFileSync(bundle, 'utf8');
    assert.ok(source.includes('`Usage:\n'));
    writeFileSync(bundle, source.replace('`Usage:\n', '`USAGE:\n'));
    assert.match(help(), /^USAGE:/);

    // The cache is what runs when its stamp matches (here forged): the old code answers.
    const now = statSync(bundle);
    writeFileSync(cache, Buffer.concat([Buffer.from(`${now.size} ${now.mtimeMs}\n`, 'latin1'), data.subarray(data.indexOf(10) + 1)]));
    assert.match(help(), /^Usage:/);
  });
});
