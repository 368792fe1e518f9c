// Preloaded into the CLI by test/hostile/limits.ts: reports the process's own peak RSS (kB) at exit.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload */
const { writeFileSync } = require('node:fs');
const file = process.env.NPU_HOSTILE_RSS_FILE;
if (file) process.on('exit', () => { try { writeFileSync(file, String(process.resourceUsage().maxRSS)); } catch { /* best effort */ } });
