// The details pane of a clicked item in a pretty-printed trace (InferScope: one event over ~20
// lines) shows the fields of the whole element, not of its first line ("{"), which has none.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { elementFields, lineFields, MAX_ELEMENT_LINES, opensElement } from '../../../client/timeline/fields';
import { buildTimeline } from '../../../core/detectFormat';

const ROOT = join(__dirname, '..', '..', '..');

test('a clicked InferScope kernel gets its fields from the lines of its event', () => {
  const lines = readFileSync(join(ROOT, 'examples/llm-requests.inferscope.json'), 'utf8').split('\n');
  const m = buildTimeline('llm-requests.inferscope.json', lines)!;
  const i = Array.from(m.items.name).findIndex((n) => m.strings[n] === 'attention_forward');
  const first = lines[m.items.line[i]];
  assert.equal(first.trim(), '{');
  assert.deepEqual(lineFields(first), [], 'the first line alone has no fields');
  assert.ok(opensElement(first));
  const f = new Map(elementFields(lines.slice(m.items.line[i])));
  assert.equal(f.get('id'), '"k7_0_0"');
  assert.equal(f.get('type'), '"gpu_kernel"');
  assert.equal(f.get('duration_us'), '500');
  assert.match(f.get('metadata')!, /^\{ "device_id": 0, "stream_id": 7, .*\}$/);
  assert.equal(f.get('name'), '"attention_forward"');
  assert.equal(f.size, 9, [...f.keys()].join());
});

test('one-line elements are read as before; brackets in strings do not count; long elements stop at the bound', () => {
  const line = '{"a": 18446744073709551615, "b": "x\\"}y", "c": [1, 2]}';
  assert.ok(!opensElement(line));
  assert.deepEqual(elementFields([line, '{"next": 1}']), lineFields(line));
  assert.deepEqual(elementFields(['  {', '    "s": "} ] {",', '    "n": 1', '  },', '  {"other": 2}']), [['s', '"} ] {"'], ['n', '1']]);
  const long = ['{', ...Array.from({ length: 1000 }, (_, k) => `"k${k}": ${k},`), '"last": 1', '}'];
  const got = elementFields(long);
  assert.equal(got.length, MAX_ELEMENT_LINES - 1, 'the fields before the cut');
  assert.deepEqual(got[0], ['k0', '0']);
  assert.deepEqual(elementFields([]), []);
});
