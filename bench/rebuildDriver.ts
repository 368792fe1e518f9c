/**
 * Run by bench/vscode.ts, bundled and in a plain node process (a TypeScript loader would also load
 * in every worker thread, and slow a fresh thread's start): the timeline worker's build of one
 * trace, again and again as a rebuild after an edit or a second Show Timeline asks for it, on a
 * fresh thread each time against the thread runJob's `keepWarm` kept, alternated; and a first
 * build on a thread started a second before (`prestartWorker`, as when a trace editor became
 * active) against a fresh one. Prints JSON.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prestartWorker, runJob } from '../node/jobs/runJob';
import { readBuildReport, type BuildRequest } from '../protocol/timelineWorker';

async function main(): Promise<void> {
  const [worker, path, fileName, n] = process.argv.slice(2);
  const req: BuildRequest = { kind: 'file', fileName, path };
  const build = async (keepWarm: boolean, file = worker) => {
    const t0 = performance.now();
    await runJob(file, req, { read: readBuildReport, name: 'the timeline worker', keepWarm });
    return performance.now() - t0;
  };
  // The first job of the kept thread is a fresh thread's: not counted.
  await build(true);
  const fresh: number[] = [];
  const warm: number[] = [];
  for (let r = 0; r < Number(n); r++) {
    if (r % 2) fresh.push(await build(false));
    warm.push(await build(true));
    if (r % 2 === 0) fresh.push(await build(false));
  }
  // A first build: each prestarted thread is of a copy of the bundle of its own, so none is warm.
  const dir = mkdtempSync(join(tmpdir(), 'npu-prestart-'));
  const first: number[] = [];
  const prestarted: number[] = [];
  try {
    for (let r = 0; r < Number(n); r++) {
      const copy = join(dir, `timelineWorker-${r}.js`);
      copyFileSync(worker, copy);
      if (r % 2) first.push(await build(false));
      prestartWorker(copy);
      await new Promise((res) => setTimeout(res, 1000));
      prestarted.push(await build(true, copy));
      if (r % 2 === 0) first.push(await build(false));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ fresh, warm, first, prestarted }));
}

void main();
