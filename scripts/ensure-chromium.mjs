// Setup step of `npm test` (run by scripts/run-tests.mjs before the suites): the webview tests and
// the timeline bench drive the built page in headless Chromium, and a fresh CI machine has none.
// Installs Debian's chromium the way the end-to-end setup does (apt-get, as root or through sudo -n);
// nothing happens when CHROMIUM_PATH or a known binary is already there. The tests only look for it.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystemPackages } from './vscode-setup.mjs';

/** Kept in step with test/webview/chromium.ts, which finds the binary for the tests. */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

export function findChromium() {
  const env = process.env.CHROMIUM_PATH;
  if (env) {
    if (existsSync(env)) return env;
    throw new Error(`CHROMIUM_PATH is ${env}, which does not exist`);
  }
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p));
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  ensureSystemPackages({ browser: true, build: false });
  const after = findChromium();
  if (!after) throw new Error('apt-get ran but no Chromium binary was found');
  return after;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stderr.write(`[ensure-chromium] ${ensureChromium()}\n`);
  } catch (err) {
    process.stderr.write(`[ensure-chromium] FAILED: ${err instanceof Error ? err.message : String(err)}\n` +
      '  the webview tests need Chromium: apt-get install -y chromium, or set CHROMIUM_PATH to a Chromium or Chrome binary\n');
    process.exit(1);
  }
}
