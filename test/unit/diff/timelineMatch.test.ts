import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTimeline } from '../../../core/detectFormat';
import { groupItems } from '../../../core/diff/timelineMatch';
import { traceDiff } from '../../../core/trace/diff';
import { ATTRS, KIND, KIND_NAMES } from '../../../core/timeline/model';
import { traceLines } from '../../gen/genTrace';
import { compare, runOfLines } from './helpers';

// The Diff view highlights a group's items in both runs' timelines: what the format's
// `diff.timeline` finds must be the items the comparison counted.
describe("a diff group's items in the timeline model", () => {
  const lines = [...traceLines({ events: 1e7, commands: 600, seed: 3 })];
  const model = buildTimeline('a.trace.jsonl', lines)!;
  const run = runOfLines(traceDiff, lines);
  const r = compare(run, run, 'npu-trace');
  const match = traceDiff.timeline!;
  const commandsOf = (marks: Uint8Array) => {
    let n = 0;
    for (let i = 0; i < marks.length; i++) if (marks[i] && model.items.kind[i] === KIND.command) n++;
    return n;
  };

  it("a phase's or layer's commands are the group's count, with the spans they carry marked too", () => {
    for (const kind of ['phase', 'layer'] as const) {
      for (const g of r.groups.filter((x) => x.kind === kind)) {
        const found = groupItems(model, match[kind]!, g.key);
        assert.equal(commandsOf(found.marks), g.a.count, `${kind} ${g.key}`);
        assert.ok(found.count > g.a.count, `${kind} ${g.key}: its spans are marked too`);
        // Every mark carries the attribute; nothing unmarked does.
        const a = ATTRS.indexOf(match[kind]!.by === 'attr' ? (match[kind] as { attr: (typeof ATTRS)[number] }).attr : 'phase');
        for (let i = 0; i < found.marks.length; i++) {
          const v = model.strings[model.ctxAttrs[model.items.ctx[i] * ATTRS.length + a]];
          assert.equal(found.marks[i] === 1, v === g.key, `item ${i}`);
        }
      }
    }
  });

  it('a command type marks its commands only; an engine its spans; the first start is the earliest', () => {
    for (const g of r.groups.filter((x) => x.kind === 'cmd_type')) {
      const found = groupItems(model, match.cmd_type!, g.key);
      assert.equal(found.count, g.a.count, g.key);
      assert.equal(commandsOf(found.marks), found.count);
    }
    const te = groupItems(model, match.engine!, 'TE');
    assert.ok(te.count > 0);
    let first = Infinity;
    for (let i = 0; i < te.marks.length; i++) {
      assert.equal(te.marks[i] === 1, KIND_NAMES[model.items.kind[i]] === 'TE');
      if (te.marks[i]) first = Math.min(first, model.items.start[i]);
    }
    assert.equal(te.first, first);
  });

  it('a key the model does not hold marks nothing', () => {
    for (const m of Object.values(match)) assert.deepEqual({ ...groupItems(model, m!, 'no such group'), marks: undefined }, { marks: undefined, count: 0, first: null });
  });
});
