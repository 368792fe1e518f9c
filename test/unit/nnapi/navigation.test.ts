import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callPath, closingLines, scopeAtLine, timeRole } from '../../../core/nnapi/navigation';
import { analyzeText } from './helpers';
import { HEADER, thread, trace } from './traceBuilder';

const H = HEADER.length;

describe('nnapi navigation data', () => {
  // H+0 B LR_PE run; H+1 B LC_PTR funcC1; H+2 [SW] LC_PCO funcC1; H+3 E (PCO); H+4 E (ends funcC1: the dummy); H+5 E (run)
  const doc = analyzeText(trace(thread([[0, '[NN_LR_PE]run'], [1, '[NN_LC_PTR]funcC1'], [4, '[SW][NN_LC_PCO]funcC1'], [10, 'E'], [11, 'E'], [12, 'E']])));
  const a = doc.analysis;

  it('maps E rows to the scope they end, [SW] rows to the scope they switch from', () => {
    assert.equal(a.closed.get(H + 3)?.line, H + 2, 'E → the switched-to scope');
    assert.equal(a.closed.get(H + 2)?.line, H + 1, '[SW] → the scope it ends');
    assert.equal(a.closed.get(H + 4)?.line, H + 1, "the dummy's E → the function that switched");
    assert.equal(a.closed.get(H + 5)?.line, H);
    assert.deepEqual(closingLines(a.opened.get(H + 1)!), [H + 2, H + 4]);
  });

  it('gives the call path in the rewritten tree, dummies gone', () => {
    const pco = scopeAtLine(a, H + 2)!.scope;
    assert.deepEqual(callPath(pco).map((s) => s.fn), ['run', 'funcC1']);
    assert.equal(callPath(pco)[1].phaseTag, 'PCO');
    assert.equal(pco.rawParent?.fn, 'run', 'the outline nests the switched-to scope beside the one it replaced');
    assert.equal(timeRole(pco), 'counted');
    assert.ok(Math.abs(pco.time - 6) < 0.01);
  });
});
