// dist/cli.js, the `npu-trace` binary: picks the bundle to load before any of it is parsed, so a
// command bundled alone does not pay for compiling the full CLI (dist/cliMain.js). The bundles are
// siblings of this file in dist/ (external in scripts/build.mjs).
import { join } from 'node:path';
import { loadBundle } from './loadBundle';

const argv = process.argv.slice(2);
if (argv[0] === 'check' || argv[0] === 'stats') {
  // The parallel check's (and stats') workers boot on the other cores while this thread compiles
  // the CLI bundle. Required here, not imported, so no other command loads it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./checkThreads') as typeof import('./checkThreads')).startCheckWorkersEarly(argv);
}
loadBundle(join(__dirname, argv[0] === 'nnapi-stats' ? 'nnapiStats.js' : 'cliMain.js'), process.env.NPU_WRITE_CODE_CACHE === '1');
