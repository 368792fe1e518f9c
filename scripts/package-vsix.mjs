// Builds the production bundles and packages them into npu-trace-inspector.vsix with vsce
// (`npm run package`). Everything is bundled, so vsce's dependency walk is off.
// Options: --no-build (package dist/ as it is), --out PATH.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const VSIX = join(ROOT, 'npu-trace-inspector.vsix');

function run(args) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed with exit status ${r.status ?? r.signal}`);
}

/**
 * vsce rewrites the README's relative links (the screenshot) to absolute ones, as the marketplace
 * needs; it guesses the base only for GitHub/GitLab, so derive it from package.json's repository.
 */
function linkBases() {
  const repo = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).repository;
  const url = (typeof repo === 'string' ? repo : repo?.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '');
  return url.startsWith('https://') ? ['--baseContentUrl', `${url}/blob/HEAD`, '--baseImagesUrl', `${url}/raw/HEAD`] : [];
}

/**
 * Returns the path of the fresh .vsix. `build: false` packages dist/ as it is (the unit test does,
 * while other suites use dist/); `out` writes elsewhere.
 */
export function packageVsix({ build = true, out = VSIX } = {}) {
  if (build) run([join(ROOT, 'scripts/build.mjs'), '--production']);
  run([join(ROOT, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', ...linkBases(), '-o', out]);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  try {
    packageVsix({ build: !argv.includes('--no-build'), out: argv.includes('--out') ? resolve(argv[argv.indexOf('--out') + 1]) : VSIX });
  } catch (err) {
    process.stderr.write(`package: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
