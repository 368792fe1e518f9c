// Builds the timeline page with webview/render.ts as it was at a git revision and everything else as
// it is now, so the timeline bench compares the old renderer with the new one in the same run, in
// the same browser, measured by the same page code.
//   node bench/timelineBaseline.mjs <git revision> <output dir>
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [rev, outdir] = process.argv.slice(2);
if (!rev || !outdir) throw new Error('usage: node bench/timelineBaseline.mjs <git revision> <output dir>');
// What moved since, imported from where it is now (80a11e7: one pair of binary searches in core/common/bounds.ts).
const MOVED = [["import { lowerBound } from './query';", "import { lowerBound } from '../core/common/bounds';"]];
let render = execFileSync('git', ['show', `${rev}:webview/render.ts`], { cwd: ROOT, encoding: 'utf8' });
for (const [before, now] of MOVED) render = render.replace(before, now);

await esbuild.build({
  entryPoints: { webview: join(ROOT, 'webview/main.ts') }, outdir, bundle: true, platform: 'browser', format: 'iife',
  target: 'chrome120', logLevel: 'warning', loader: { '.css': 'css' }, mainFields: ['module', 'main'],
  plugins: [{
    name: 'baseline-render',
    setup(b) {
      b.onLoad({ filter: /[\\/]webview[\\/]render\.ts$/ }, () => ({ contents: render, loader: 'ts', resolveDir: join(ROOT, 'webview') }));
    },
  }],
});
