import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/**
 * The Chromium binary for the browser tests and the bench. A fresh CI machine has none: install
 * Debian's `chromium` the same way scripts/vscode-setup.mjs does (idempotent: nothing happens when
 * one is already there). CHROMIUM_PATH overrides.
 */
export function chromiumPath(): string {
  const env = process.env.CHROMIUM_PATH;
  if (env && existsSync(env)) return env;
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  const apt = (args: string[]) => spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  if (!apt(['install', '-y', '--no-install-recommends', 'chromium'])) {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  }
  const after = CANDIDATES.find((p) => existsSync(p));
  if (!after) throw new Error('Chromium is needed for the webview tests: install it (apt-get install -y chromium) or set CHROMIUM_PATH.');
  return after;
}
