// Builds the production bundles and packages them into npu-trace-inspector.vsix with vsce
// (`npm run package`). Everything is bundled, so vsce's dependency walk is off.
import { spawnSync } from 'node:child_process';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const VSIX = join(ROOT, 'npu-trace-inspector.vsix');

function run(args) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed with exit status ${r.status ?? r.signal}`);
}

/** Returns the path of the fresh .vsix. */
export function packageVsix() {
  run([join(ROOT, 'scripts/build.mjs'), '--production']);
  run([join(ROOT, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '-o', VSIX]);
  return VSIX;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    packageVsix();
  } catch (err) {
    process.stderr.write(`package: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
