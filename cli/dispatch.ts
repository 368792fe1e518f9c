// dist/cli.js, the `npu-trace` binary: picks the bundle to load before any of it is parsed, so a
// command bundled alone does not pay for compiling the full CLI (dist/cliMain.js). The paths are
// left to node (external in scripts/build.mjs): they are siblings of this file in dist/.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(process.argv[2] === 'nnapi-stats' ? './nnapiStats.js' : './cliMain.js');
