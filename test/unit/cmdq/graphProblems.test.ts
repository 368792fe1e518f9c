// The checker's problems placed on the graph's nodes and edges, joined by entry index.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { CmdqDocument } from '../../../core/cmdq/document';
import { graphProblems } from '../../../core/cmdq/graph/problems';
import { defaultDiagnosticSettings } from '../../../core/common/settings';

const FIX = resolve(__dirname, '../../fixtures/cmdq');

function placed(name: string, maxProblems = Infinity) {
  const doc = CmdqDocument.parse(readFileSync(resolve(FIX, `${name}.cmdq.json`), 'utf8'));
  const diags = doc.capped({ ...defaultDiagnosticSettings, maxProblems }).diagnostics;
  return graphProblems(doc, diags).map((p) => [p.code, p.index, p.from ?? null, p.peer ?? null]);
}

describe('cmdq graph problems', () => {
  it('a cycle is drawn on each of its edges: the dep element names the edge from its entry', () => {
    // 2 waits for 4 (forward), 3 for 2, 4 for 3.
    assert.deepEqual(placed('dep-cycle'), [
      ['cmdq.dep-cycle', 2, 4, null], ['cmdq.forward-dep', 2, 4, null],
      ['cmdq.dep-cycle', 3, 2, null], ['cmdq.dep-cycle', 4, 3, null],
    ]);
  });

  it('a forward dep is drawn on its edge', () => {
    assert.deepEqual(placed('forward-dep'), [['cmdq.forward-dep', 0, 1, null]]);
  });

  it('an unknown dep makes no edge: it is drawn on its node only', () => {
    assert.deepEqual(placed('unknown-dep'), [['cmdq.unknown-dep', 4, null, null]]);
  });

  it('an SPM overlap flags the load and the earlier load whose tile it can overwrite', () => {
    assert.deepEqual(placed('spm-overlap'), [['cmdq.spm-overlap', 1, null, 0]]);
  });

  it('places only the problems the editor lists (maxProblems)', () => {
    assert.equal(placed('dep-cycle', 2).length, 2);
  });
});
