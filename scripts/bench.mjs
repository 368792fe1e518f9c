// Bundles the benchmarks with esbuild (the code measured is built as shipped, without tsx's
// wrappers) and runs them in one process, so numbers compare within one run.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';

await esbuild.build({
  entryPoints: ['bench/run.ts'], outfile: 'out/bench/run.js', bundle: true, platform: 'node', format: 'cjs',
  target: 'node20', logLevel: 'warning', external: ['playwright-core', 'vscode-json-languageservice'],
  // jsonc-parser's UMD build (its 'main') does not bundle; its ESM build does.
  mainFields: ['module', 'main'],
});
const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=12288', 'out/bench/run.js', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
