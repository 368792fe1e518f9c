// The limits harness itself: a peak RSS and a CPU time are read, of the program alone, and a process over its time is killed and said so.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { LspClient } from '../lsp/lspClient';
import { peakRssMb, runCliLimited } from './limits';

describe('hostile harness', () => {
  it('reads the CLI peak RSS and CPU time at exit', async () => {
    const r = await runCliLimited(['--help'], 30_000);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.peakMb > 10 && r.peakMb < 1000, `peak ${r.peakMb} MB`);
    assert.ok(r.cpuMs > 0 && r.cpuMs < 30_000, `${r.cpuMs} ms CPU`);
  });

  it('measures the program alone: a loader in the runner\'s NODE_OPTIONS reaches neither the CLI nor the server', async () => {
    const runner = process.env.NODE_OPTIONS;
    // A preload that does not exist: a child that inherited it would not start at all.
    process.env.NODE_OPTIONS = `--require ${join(__dirname, 'no-such-preload.cjs')}`;
    try {
      const r = await runCliLimited(['--help'], 30_000);
      assert.equal(r.code, 0, r.stderr);
      const c = await LspClient.start();
      try {
        assert.ok(peakRssMb(c.proc.pid!) > 10);
      } finally {
        await c.stop();
      }
    } finally {
      if (runner === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = runner;
    }
  });

  it('kills a run past its time limit and reports it', async () => {
    const slow = await runCliLimited(['--help'], 1);
    assert.ok(slow.timedOut, 'a 1 ms limit is always exceeded by a node start');
    assert.ok(Number.isNaN(slow.peakMb));
  });
});
