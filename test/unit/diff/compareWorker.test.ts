// The editor's comparison (Compare with… → the Diff view) runs in dist/compareWorker.js (built by
// `npm run build`) through the job runner: the same comparison as `npu-trace diff --json`, over
// every kind and each kind alone, with progress, and cancellable.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { JobCancelled, runJob } from '../../../node/jobs/runJob';
import { type CompareJob, type CompareProgress, readCompareMessage } from '../../../protocol/compareWorker';
import { PLANTED_PAIR, traceText } from '../../gen/genTrace';
import { runCli } from '../../cli/run';

const ROOT = resolve(__dirname, '../../..');
const WORKER = join(ROOT, 'dist/compareWorker.js');

describe('the comparison worker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compare-worker-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  // The pair of test/unit/diff/trace.test.ts: 600 commands, MLP 1.5× slower in B.
  const a = join(dir, 'base.trace.jsonl');
  const b = join(dir, 'new.trace.jsonl');
  writeFileSync(a, traceText(PLANTED_PAIR.base));
  writeFileSync(b, traceText(PLANTED_PAIR.slower));
  const job: CompareJob = { a, b, format: 'npu-trace' };

  it('gives what `npu-trace diff --json` gives, and `--by <kind>` for each kind', async () => {
    const progress: CompareProgress[] = [];
    const r = await runJob(WORKER, job, { read: readCompareMessage, name: 'the comparison worker', onProgress: (p) => progress.push(p) });
    const cli = await runCli(['diff', '--json', a, b]);
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(r.all, JSON.parse(cli.stdout));
    const byPhase = await runCli(['diff', '--json', '--by', 'phase', a, b]);
    assert.deepEqual(r.byKind.phase, JSON.parse(byPhase.stdout));
    assert.deepEqual(Object.keys(r.byKind), ['phase', 'layer', 'cmd_type', 'engine']);
    assert.equal(`${r.all.regressions[0].kind}:${r.all.regressions[0].key}`, 'phase:MLP');
    // Progress is counted in bytes of both files, never past their sum.
    for (const p of progress) assert.ok(p.bytes <= p.total && p.total > 0);
  });

  it('stops when cancelled, and names an unknown format', async () => {
    const stop = new AbortController();
    const run = runJob(WORKER, job, { read: readCompareMessage, name: 'the comparison worker', signal: stop.signal });
    stop.abort();
    await assert.rejects(run, JobCancelled);
    await assert.rejects(runJob(WORKER, { ...job, format: 'nope' }, { read: readCompareMessage, name: 'the comparison worker' }), /unknown format nope/);
  });
});
