// Bundles the extension host client, the language server, the CLI and the webview with esbuild.
import { execFileSync } from 'node:child_process';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none',
  // jsonc-parser's UMD entry requires its modules dynamically, which a bundle cannot follow; its ESM entry bundles.
  mainFields: ['module', 'main'] };
// A browser bundle takes each package's "browser" entry first (vscode-languageserver/-client map
// their Node transport to the browser one there).
const web = { platform: 'browser', target: 'es2022', mainFields: ['browser', 'module', 'main'] };

await Promise.all([
  esbuild.build({ ...common, entryPoints: ['client/extension.ts'], outfile: 'dist/client.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] }),
  esbuild.build({ ...common, entryPoints: ['server/server.ts'], outfile: 'dist/server.js', platform: 'node', format: 'cjs', target: 'node20' }),
  // The CLI: dist/cli.js only picks a bundle; nnapi-stats has its own small one (start-up, issue #13).
  esbuild.build({ ...common, entryPoints: ['cli/dispatch.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', banner: { js: '#!/usr/bin/env node' } }),
  esbuild.build({ ...common, entryPoints: ['cli/main.ts'], outfile: 'dist/cliMain.js', platform: 'node', format: 'cjs', target: 'node20' }),
  esbuild.build({ ...common, entryPoints: ['cli/nnapiStatsMain.ts'], outfile: 'dist/nnapiStats.js', platform: 'node', format: 'cjs', target: 'node20' }),
  // The parallel trace check's worker thread, loaded by the CLI bundle from beside it.
  esbuild.build({ ...common, entryPoints: ['cli/checkWorker.ts'], outfile: 'dist/checkWorker.js', platform: 'node', format: 'cjs', target: 'node20' }),
  esbuild.build({ ...common, entryPoints: ['cli/diffWorker.ts'], outfile: 'dist/diffWorker.js', platform: 'node', format: 'cjs', target: 'node20' }),
  // The Parquet export's worker thread (`--jobs N`), loaded by the CLI bundle from beside it.
  esbuild.build({ ...common, entryPoints: ['node/export/parquetWorker.ts'], outfile: 'dist/exportParquetWorker.js', platform: 'node', format: 'cjs', target: 'node20' }),
  // Profiler buffers are opened and decoded in a worker thread.
  esbuild.build({ ...common, entryPoints: ['node/workers/kprofWorker.ts'], outfile: 'dist/kprofWorker.js', platform: 'node', format: 'cjs', target: 'node20' }),
  // The timeline: its model is built in a worker thread, and its page runs in the webview.
  esbuild.build({ ...common, entryPoints: ['node/workers/timelineWorker.ts'], outfile: 'dist/timelineWorker.js', platform: 'node', format: 'cjs', target: 'node20' }),
  esbuild.build({ ...common, entryPoints: ['node/workers/timelineRead.ts'], outfile: 'dist/timelineReadWorker.js', platform: 'node', format: 'cjs', target: 'node20' }),
  esbuild.build({ ...common, entryPoints: { webview: 'webview/main.ts' }, outdir: 'dist/webview', platform: 'browser', format: 'iife', target: 'chrome120', loader: { '.css': 'css' } }),
  esbuild.build({ ...common, entryPoints: { webview: 'webview/style.css' }, outdir: 'dist/webview', loader: { '.css': 'css' } }),
  // Compare with…: both runs compared in a worker thread; the Diff view and Compare Timelines pages.
  esbuild.build({ ...common, entryPoints: ['node/workers/compareWorker.ts'], outfile: 'dist/compareWorker.js', platform: 'node', format: 'cjs', target: 'node20' }),
  esbuild.build({ ...common, entryPoints: { diff: 'webview/diff/main.ts', compare: 'webview/compare/main.ts' }, outdir: 'dist/webview', platform: 'browser', format: 'iife', target: 'chrome120' }),
  // The CMDQ dependency graph: computed in a worker thread, drawn by its own page.
  esbuild.build({ ...common, entryPoints: ['node/workers/cmdqGraphWorker.ts'], outfile: 'dist/cmdqGraphWorker.js', platform: 'node', format: 'cjs', target: 'node20' }),
  esbuild.build({ ...common, entryPoints: { cmdqGraph: 'webview/graph/main.ts' }, outdir: 'dist/webview', platform: 'browser', format: 'iife', target: 'chrome120' }),
  // vscode.dev and the web extension host (package.json "browser"): the client, the language server
  // as a web worker, the timeline's model worker. No Node built-in may reach them: `external` is
  // only vscode, so an import of one fails the build (test/unit/package/webBundles.test.ts checks
  // the output too).
  esbuild.build({ ...common, ...web, entryPoints: ['hosts/webExtension.ts'], outfile: 'dist/web/extension.js', format: 'cjs', external: ['vscode'] }),
  esbuild.build({ ...common, ...web, entryPoints: ['server/browser.ts'], outfile: 'dist/web/server.js', format: 'iife' }),
]);

// V8's code cache of the CLI bundle (cli/loadBundle.ts): one run of `npu-trace --help` compiles it
// and writes dist/cliMain.js.cache at exit. A node of another version rejects it and compiles.
execFileSync(process.execPath, ['dist/cli.js', '--help'], { env: { ...process.env, NPU_WRITE_CODE_CACHE: '1' }, stdio: 'ignore' });
