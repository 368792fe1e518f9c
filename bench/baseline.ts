// The code as it was at a baseline commit, built beside the code of this checkout, so that a
// section measures old and new in the same run, alternately, under the same load (issue #28: "no
// format slower than before, same run, old vs new"). The old sources come from git (`git archive`),
// not from copies kept in the tree; they are bundled with esbuild as the bench itself is, resolving
// packages from this checkout's node_modules. Without git or the commit (a shallow clone), the
// comparison is skipped and the section says so.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './util';

/** The commit before issue #28's JSON toolkit: `BENCH_BASELINE=<rev>` names another. */
export const BASELINE = process.env.BENCH_BASELINE ?? '237887c';

/** `main` when issue #31's work began (the figures its table calls "now"): `BENCH_BASELINE_31=<rev>` names another. */
export const BEFORE_31 = process.env.BENCH_BASELINE_31 ?? '8698859';

/** The baseline's tree, extracted once per commit; undefined (with why) where git cannot give it. */
function baselineTree(rev: string): { dir: string } | { why: string } {
  const r = spawnSync('git', ['-C', REPO, 'rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { encoding: 'utf8' });
  if (r.status !== 0) return { why: `commit ${rev} is not in this checkout` };
  const full = r.stdout.trim();
  const dir = join(tmpdir(), `npu-trace-baseline-${full.slice(0, 12)}`);
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git -C "$1" archive "$2" | tar -x -C "$3"`, 'sh', REPO, full, dir]);
  }
  return { dir };
}

/** Bundles `entry` (a path in the baseline's tree) into one CommonJS file; its path, or why not. */
export function baselineBundle(entry: string, rev = BASELINE): { file: string } | { why: string } {
  const tree = baselineTree(rev);
  if ('why' in tree) return tree;
  const file = join(tree.dir, 'out/baseline', `${entry.replace(/[/.]/g, '_')}.js`);
  if (!existsSync(file)) {
    // The bench's own esbuild, from this checkout: a module the bundle does not take in.
    const req = createRequire(join(REPO, 'package.json'));
    const esbuild = req('esbuild') as typeof import('esbuild');
    esbuild.buildSync({
      entryPoints: [join(tree.dir, entry)], outfile: file, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error',
      nodePaths: [join(REPO, 'node_modules')], mainFields: ['module', 'main'], external: ['vscode', 'playwright-core', 'vscode-json-languageservice'],
    });
  }
  return { file };
}

/** The module `entry` exports at the baseline commit, or why it is not there. */
export function baselineModule<T>(entry: string, rev = BASELINE): T | { why: string } {
  const b = baselineBundle(entry, rev);
  if ('why' in b) return b;
  return createRequire(join(REPO, 'package.json'))(b.file) as T;
}

/**
 * The baseline's `dist/` built by its own build script (the CLI as it was shipped then), for cold
 * CLI runs beside this checkout's; the path of its `dist/cli.js`, or why there is none.
 */
export function baselineCli(rev = BASELINE): { file: string } | { why: string } {
  const tree = baselineTree(rev);
  if ('why' in tree) return tree;
  const file = join(tree.dir, 'dist/cli.js');
  if (!existsSync(file)) {
    if (!existsSync(join(tree.dir, 'node_modules'))) symlinkSync(join(REPO, 'node_modules'), join(tree.dir, 'node_modules'), 'dir');
    const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: tree.dir, encoding: 'utf8' });
    if (r.status !== 0 || !existsSync(file)) return { why: `the build of ${rev} failed: ${(r.stderr || r.stdout).split('\n')[0]}` };
  }
  return { file };
}
