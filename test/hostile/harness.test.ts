// The limits harness itself: a peak RSS is read, and a process over its time is killed and said so.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCliLimited } from './limits';

describe('hostile harness', () => {
  it('reads the CLI peak RSS at exit', async () => {
    const r = await runCliLimited(['--help'], 30_000);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.peakMb > 10 && r.peakMb < 1000, `peak ${r.peakMb} MB`);
  });

  it('kills a run past its time limit and reports it', async () => {
    const slow = await runCliLimited(['--help'], 1);
    assert.ok(slow.timedOut, 'a 1 ms limit is always exceeded by a node start');
    assert.ok(Number.isNaN(slow.peakMb));
  });
});
