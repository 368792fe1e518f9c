// Preloaded into the CLI by test/hostile/limits.ts: reports the process's own peak RSS (kB) and
// CPU time (user + system, µs, all its threads) at exit.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload */
const { writeFileSync } = require('node:fs');
const file = process.env.NPU_HOSTILE_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    try { writeFileSync(file, `${u.maxRSS} ${u.userCPUTime + u.systemCPUTime}`); } catch { /* best effort */ }
  });
}
