/** The browser tests find Chromium; installing it is the setup step's job (scripts/ensure-chromium.mjs), never a test's. */
import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { chromiumPath } from '../../webview/chromium';

test('no Chromium: a clear error naming the setup step and CHROMIUM_PATH, and no install attempted', (t) => {
  const spawned: string[] = [];
  for (const f of ['spawnSync', 'execSync', 'execFileSync'] as const) {
    t.mock.method(childProcess, f, (cmd: string) => {
      spawned.push(cmd);
      throw new Error(`a test ran ${cmd}`);
    });
  }
  assert.throws(() => chromiumPath({}, ['/nonexistent/chromium']), (e: Error) => /ensure-chromium\.mjs/.test(e.message) && /CHROMIUM_PATH/.test(e.message) && /\/nonexistent\/chromium/.test(e.message));
  assert.deepEqual(spawned, [], 'nothing was spawned (no apt-get)');
});

test('CHROMIUM_PATH wins, and a wrong one is reported rather than ignored', () => {
  assert.equal(chromiumPath({ CHROMIUM_PATH: process.execPath }, []), process.execPath);
  assert.throws(() => chromiumPath({ CHROMIUM_PATH: '/nonexistent/chrome' }, []), /CHROMIUM_PATH is \/nonexistent\/chrome, which does not exist/);
});

test('the first known path that exists', () => {
  assert.equal(chromiumPath({}, ['/nonexistent/a', process.execPath]), process.execPath);
  assert.ok(existsSync(process.execPath));
});
