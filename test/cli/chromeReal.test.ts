// `npu-trace check` and `export --to chrome-trace` on Chrome traces laid out as PyTorch 2.x (Kineto)
// and JAX write them (test/fixtures/real): the bundled dist/cli.js, as users run it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTimeline } from '../../core/detectFormat';
import { kinetoCompiledTrace, kinetoEagerTrace, kinetoLegacyTrace } from '../gen/kinetoGen';
import { REAL_FILES } from '../gen/writeRealFixtures';
import { arrowsOf } from '../unit/export/perfetto';
import { runCli } from './run';

describe('npu-trace on real writers\' Chrome traces', () => {
  for (const [file, gen] of [[REAL_FILES.eager, kinetoEagerTrace], [REAL_FILES.compiled, kinetoCompiledTrace]] as const) {
    it(`check ${file}: exit 0, only the flows the profiling window cut, each saying so`, async () => {
      const r = await runCli(['check', file]);
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.trim().split('\n');
      assert.equal(lines.length, gen().cutFlowEvents, r.stdout);
      for (const l of lines) assert.match(l, / warning chrome\.unpaired-flow Flow (start|end) with id "\d+" .*the profiling window cut it\)$/);
    });

    it(`export --to chrome-trace of ${file} keeps every arrow between the same slices`, async () => {
      const text = gen().text;
      const x = await runCli(['export', file, '--to', 'chrome-trace']);
      assert.equal(x.code, 0, x.stderr);
      const before = arrowsOf(buildTimeline('run.pt.trace.json', text.split('\n'))!);
      assert.equal(before.length, gen().pairedFlows);
      assert.deepEqual(arrowsOf(buildTimeline('back.trace.json', x.stdout.split('\n'))!), before);
    });
  }

  it('check of a 2021 Kineto trace with no flow cut: nothing to report', async () => {
    const r = await runCli(['check', REAL_FILES.legacy]);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
    assert.ok(kinetoLegacyTrace().pairedFlows > 0);
  });

  it('check of JAX\'s perfetto_trace.json.gz (ending in {}): nothing to report', async () => {
    const r = await runCli(['check', REAL_FILES.jax]);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
  });
});
