// Loads a bundle beside dist/cli.js with the V8 code cache scripts/build.mjs wrote for it
// (`<bundle>.cache`): compiling the 1.5 MB CLI bundle was 20–40 ms of every start, on the parallel
// check's critical path (its workers wait for the main thread's first chunk). Node 20 has no
// compile cache of its own (module.enableCompileCache is Node 22).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/**
 * The cache file: one line `<size> <mtimeMs>` of the bundle it was made from, then V8's data. V8
 * checks its version and flags, and of the source only the length: a rebuilt bundle (another
 * mtime) must not be run with the old code, so a cache is used only for the very file it was made
 * from, and otherwise the bundle is required as usual.
 */
function stampOf(file: string): string {
  const st = statSync(file);
  return `${st.size} ${st.mtimeMs}\n`;
}

/** CommonJS's wrapper, as `require` compiles a file (the same source the cache was made of). */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

/**
 * Runs the bundle, with its code cache when there is one made from it. With `writeCache` (the
 * build: `NPU_WRITE_CODE_CACHE=1 node dist/cli.js --help`), compiles it without one and writes one
 * at exit, holding every function the run compiled.
 */
export function loadBundle(file: string, writeCache = false): void {
  let data: Buffer | undefined;
  try {
    if (!writeCache) data = readFileSync(`${file}.cache`);
  } catch {
    // No cache (a build without one): the plain way.
  }
  const nl = data ? data.indexOf(10) : -1;
  if (!writeCache && (!data || nl < 0 || data.toString('latin1', 0, nl + 1) !== stampOf(file))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(file);
    return;
  }
  const script = new Script(wrap(readFileSync(file, 'utf8')), { filename: file, cachedData: data?.subarray(nl + 1) });
  if (writeCache) process.on('exit', () => writeFileSync(`${file}.cache`, Buffer.concat([Buffer.from(stampOf(file), 'latin1'), script.createCachedData()])));
  const module = { exports: {}, filename: file, id: file, loaded: false };
  (script.runInThisContext() as (...a: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
}
