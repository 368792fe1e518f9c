/**
 * Run by bench/vscode.ts, bundled and in a plain node process (a TypeScript loader would also load
 * in every worker thread, and slow a fresh thread's start): the timeline worker's build of one
 * trace, again and again as a rebuild after an edit or a second Show Timeline asks for it, on a
 * fresh thread each time against the thread runJob's `keepWarm` kept, alternated. Prints JSON.
 */
import { runJob } from '../node/jobs/runJob';
import { readBuildReport, type BuildRequest } from '../protocol/timelineWorker';

async function main(): Promise<void> {
  const [worker, path, fileName, n] = process.argv.slice(2);
  const req: BuildRequest = { kind: 'file', fileName, path };
  const build = async (keepWarm: boolean) => {
    const t0 = performance.now();
    await runJob(worker, req, { read: readBuildReport, name: 'the timeline worker', keepWarm });
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
  console.log(JSON.stringify({ fresh, warm }));
}

void main();
