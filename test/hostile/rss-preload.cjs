// Preloaded into the CLI by test/hostile/limits.ts: reports the process's own peak RSS (kB) and
// CPU time (user + system, µs, all its threads) at exit. The peak is Linux's VmHWM, this program's
// own: getrusage's maxRSS (resourceUsage) keeps across exec the peak of the process it was forked
// from, so a CLI spawned by a test runner grown to 270 MB reported 270 MB for a run of 58.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload */
const { readFileSync, writeFileSync } = require('node:fs');
const file = process.env.NPU_HOSTILE_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    let peakKb = u.maxRSS;
    try {
      const m = /^VmHWM:\s*(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
      if (m) peakKb = Number(m[1]);
    } catch { /* not Linux: maxRSS */ }
    try { writeFileSync(file, `${peakKb} ${u.userCPUTime + u.systemCPUTime}`); } catch { /* best effort */ }
  });
}
