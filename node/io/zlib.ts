// node:zlib on first use, not at start-up: loading it took 3–6 ms of every CLI process and of every
// worker of the parallel check, and only .gz files, kprof captures and the Parquet export use it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const zlib = (): typeof import('node:zlib') => require('node:zlib');
