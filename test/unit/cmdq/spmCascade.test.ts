// A broken dependency chain in a long queue is one SPM hazard, reported once: the overwritten tile
// ends at the load that overwrites it (it used to stay live and be reported against every later
// load of its bank, 114 warnings per mistake and a quadratic search).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CmdqDocument } from '../../../core/cmdq/document';
import { cmdqText, cmdqWithErrors } from '../../gen/cmdqGen';

describe('cmdq.spm-overlap on broken chains', () => {
  it('the generated queue is clean, and one mistake in 100 entries gives at most one overlap per mistake', () => {
    assert.equal(CmdqDocument.parse(cmdqText(2000)).allDiagnostics().length, 0);
    const d = CmdqDocument.parse(cmdqWithErrors(2000)).allDiagnostics();
    const overlaps = d.filter((x) => x.code === 'cmdq.spm-overlap');
    assert.ok(overlaps.length > 0, 'the broken chains are still reported');
    assert.ok(overlaps.length <= 20, `${overlaps.length} overlaps for 20 mistakes`);
    const lines = overlaps.map((x) => x.range.start.line);
    assert.equal(new Set(lines).size, lines.length, 'one report per overwriting load');
  });
});
