import assert from 'node:assert/strict';
import { it } from 'node:test';
import { traceDiff } from '../../../core/trace/diff';
import { traceLines } from '../../gen/genTrace';
import { compare, reported, runOfLines } from './helpers';

// Two runs of the same build: the generator with different seeds draws every duration from the
// same distributions. 50 pairs of 600-command traces (seeds 1–51, each against the next); the
// false-positive rate measured here is the one docs/diff.md states.
const PAIRS = 50;

it('two runs of the same build report nothing, over 50 pairs of seeds', (t) => {
  const run = (seed: number) => runOfLines(traceDiff, traceLines({ events: 1e7, commands: 600, seed }));
  let prev = run(1);
  let withReport = 0;
  let withSignificant = 0;
  let tests = 0;
  let significant = 0;
  const found: string[] = [];
  for (let s = 2; s <= PAIRS + 1; s++) {
    const next = run(s);
    const r = compare(prev, next, 'npu-trace');
    const sig = r.groups.filter((g) => g.significant).length;
    tests += r.groups.filter((g) => g.p_value !== null).length;
    significant += sig;
    if (sig) withSignificant++;
    const rep = reported(r);
    if (rep.length) {
      withReport++;
      found.push(`seeds ${s - 1}/${s}: ${rep.join(', ')}`);
    }
    prev = next;
  }
  t.diagnostic(`pairs with a reported group: ${withReport}/${PAIRS}; with a significant group: ${withSignificant}/${PAIRS}; significant groups: ${significant}/${tests}`);
  assert.deepEqual(found, []);
});
