// The editor's comparison of two runs (dist/compareWorker.js): both files read and compared off
// the extension host's main thread; only the comparison (no per-item durations) comes back.
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { compareRuns } from '../../core/diff/compare';
import { FORMATS } from '../../core/formats';
import type { CompareJob, CompareResults, CompareWorkerMessage } from '../../protocol/compareWorker';
import { diffRunOfFile } from '../io/diffOfFile';

const post = (m: CompareWorkerMessage) => parentPort!.postMessage(m);
const job = workerData as CompareJob;

/** Progress is posted at most every this many bytes (a message per 1 MB chunk is plenty). */
const STEP_BYTES = 4 << 20;

async function run(): Promise<CompareResults> {
  const fmt = FORMATS.find((f) => f.id === job.format);
  if (!fmt?.diff) throw new Error(`unknown format ${job.format}`);
  const sizes = [job.a, job.b].map((f) => statSync(f).size);
  const total = sizes[0] + sizes[1];
  let posted = 0;
  const progress = (base: number) => (bytes: number) => {
    if (base + bytes - posted < STEP_BYTES) return;
    posted = base + bytes;
    post({ progress: { bytes: posted, total } });
  };
  const a = await diffRunOfFile(job.a, fmt, progress(0));
  const b = await diffRunOfFile(job.b, fmt, progress(sizes[0]));
  const files = [{ file: job.a, format: fmt.id, run: a }, { file: job.b, format: fmt.id, run: b }] as const;
  const byKind: Record<string, CompareResults['all']> = {};
  for (const k of job.allOnly ? [] : fmt.diff.kinds) byKind[k] = compareRuns(files[0], files[1], { kinds: [k] });
  const notes = [...(a.notes ?? []).map((n) => `A: ${n}`), ...(b.notes ?? []).map((n) => `B: ${n}`)];
  return { all: compareRuns(files[0], files[1]), byKind, notes };
}

run().then((result) => post({ result }), (e: unknown) => post({ error: e instanceof Error ? e.message : String(e) }));
