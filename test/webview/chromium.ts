import { existsSync } from 'node:fs';

/** Kept in step with scripts/ensure-chromium.mjs, which installs Chromium before the suites run. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/**
 * The Chromium binary for the browser tests and the bench: CHROMIUM_PATH, else a known path. Only
 * looks: installing is the setup step's job (`node scripts/ensure-chromium.mjs`, which `npm test`
 * runs before the suites), never a test's.
 */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env, candidates: readonly string[] = CANDIDATES): string {
  const path = env.CHROMIUM_PATH;
  if (path) {
    if (existsSync(path)) return path;
    throw new Error(`CHROMIUM_PATH is ${path}, which does not exist.`);
  }
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  throw new Error(`Chromium is needed for the webview tests and was not found (looked at ${candidates.join(', ')}): run \`node scripts/ensure-chromium.mjs\` (npm test does), install it (apt-get install -y chromium), or set CHROMIUM_PATH.`);
}
