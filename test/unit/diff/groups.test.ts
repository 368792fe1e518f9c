import assert from 'node:assert/strict';
import { it } from 'node:test';
import { GroupSet, MAX_DIFF_GROUPS, MAX_KEY_CHARS, OTHER_KEY } from '../../../core/diff/groups';
import { traceDiff } from '../../../core/trace/diff';
import { runOfLines } from './helpers';

it('a file cannot grow the groups past the cap, nor a key past its length', () => {
  const g = new GroupSet('kernel');
  for (let i = 0; i < MAX_DIFF_GROUPS + 50; i++) g.add(`k${i}`, i, i + 1);
  g.add('x'.repeat(100_000), 1);
  const list = g.list();
  assert.equal(list.length, MAX_DIFF_GROUPS + 1);
  const other = list.find((x) => x.key === OTHER_KEY)!;
  assert.equal(other.durations.length, 51);
  assert.ok(list.every((x) => x.key.length <= MAX_KEY_CHARS + 1));
});

it("an NPU trace's cmd_type groups are capped as it streams", () => {
  function* lines() {
    for (let i = 0; i < MAX_DIFF_GROUPS + 20; i++) {
      const cmd = { cmd_id: i, cmd_type: `T${i}` };
      yield JSON.stringify({ event_type: 'CMD_START', t_cycle: 10 * i, ...cmd });
      yield JSON.stringify({ event_type: 'CMD_END', t_cycle: 10 * i + 5, cmd_id: i });
    }
  }
  const r = runOfLines(traceDiff, lines());
  assert.equal(r.groups.filter((g) => g.kind === 'cmd_type').length, MAX_DIFF_GROUPS + 1);
});
