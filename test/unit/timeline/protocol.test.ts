import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { lineFields } from '../../../client/timeline/fields';
import { readLines } from '../../../client/timeline/lineReader';
import { buildTimeline } from '../../../core/detectFormat';
import { MAX_REVEAL_LINES, parseHostMessage, parseWebviewMessage, validModel } from '../../../protocol/timeline';

const model = () => buildTimeline('x.trace.jsonl', ['{"event_type":"TE_START","t_cycle":1,"job_id":1}', '{"event_type":"TE_END","t_cycle":5,"job_id":1}'])!;

test('webview → host messages are validated', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(parseWebviewMessage({ type: 'select', line: 3, endLine: null, reveal: true, extra: 1 }), { type: 'select', line: 3, endLine: null, reveal: true });
  assert.deepEqual(parseWebviewMessage({ type: 'showInCmdq', layer: '3', uri: 'file:///etc' }), { type: 'showInCmdq', layer: '3' });
  for (const bad of [null, 'ready', [], { type: 'nope' }, { type: 'select', line: -1, endLine: null, reveal: true }, { type: 'select', line: 1.5, endLine: null, reveal: true },
    { type: 'select', line: 1, endLine: '2', reveal: true }, { type: 'select', line: 1, endLine: null }, { type: 'error', message: 42 },
    { type: 'showInCmdq', layer: 3 }, { type: 'showInCmdq', layer: 'x'.repeat(1001) }]) {
    assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
  }
});

test('host → webview messages are validated, models column by column', () => {
  const m = model();
  assert.ok(parseHostMessage({ type: 'model', uri: 'file:///a', fileName: 'a', model: m, complete: true }));
  assert.equal(parseHostMessage({ type: 'model', uri: 'file:///a', fileName: 'a', model: m }), undefined, 'complete is required');
  assert.ok(parseHostMessage({ type: 'details', line: 0, fields: [['a', '1']], endFields: [] }));
  assert.equal(parseHostMessage({ type: 'details', line: 0, fields: [['a', 1]], endFields: [] }), undefined);
  assert.equal(parseHostMessage({ type: 'selectLine', line: -2 }), undefined);
  assert.deepEqual(parseHostMessage({ type: 'revealLines', lines: [4, 9] }), { type: 'revealLines', lines: [4, 9] });
  for (const lines of [[], [1, -1], [1.5], 'x', new Array(MAX_REVEAL_LINES + 1).fill(0)]) assert.equal(parseHostMessage({ type: 'revealLines', lines }), undefined, String(lines).slice(0, 20));
  assert.ok(validModel(m));
  const broken: ((x: ReturnType<typeof model>) => void)[] = [
    (x) => ((x.items as { start: unknown }).start = Array.from(x.items.start)),
    (x) => ((x.items as { kind: unknown }).kind = new Uint8Array(5)),
    (x) => (x.items.name[0] = x.strings.length),
    (x) => (x.items.ctx[0] = 1e6),
    (x) => (x.rowItemStart[1] = 99),
    (x) => (x.strings[0] = 'x'),
    (x) => (x.tracks[0].parent = 5),
    (x) => (x.tracks.find((t) => t.kind === 'slices')!.rowCount = 50),
    (x) => (x.tracks.find((t) => t.kind === 'counter')!.counter = 9),
    (x) => ((x.counters[0] as { values: unknown }).values = [1]),
    (x) => ((x.counters[0] as { unit: unknown }).unit = 7),
    (x) => (x.counters[0].unit = 'u'.repeat(65)),
  ];
  broken.forEach((f, k) => {
    const x = model();
    f(x);
    assert.equal(validModel(x), false, `case ${k}`);
  });
});

test("a Chrome trace's counters keep their own unit (the args key) and the model still passes the webview's check", () => {
  const lines = readFileSync('test/fixtures/chrome/pytorch.pt.trace.json', 'utf8').split('\n');
  const m = buildTimeline('pytorch.pt.trace.json', lines)!;
  assert.ok(m.counters.length > 0 && m.counters.some((c) => c.unit !== 'fraction' && c.unit !== 'bytes/cycle'), 'the fixture has a counter in its own unit');
  assert.ok(validModel(m), 'the model the extension posts is accepted by the page');
});

test('details: exact raw fields, and lines read back from disk (plain and .gz)', async () => {
  assert.deepEqual(lineFields('{"a": 18446744073709551615, "b": "x\\"y", "c": [1, 2]}'), [['a', '18446744073709551615'], ['b', '"x\\"y"'], ['c', '[1, 2]']]);
  const dir = mkdtempSync(join(tmpdir(), 'timeline-lines-'));
  const text = Array.from({ length: 1000 }, (_, i) => `{"n":${i}}`).join('\r\n');
  writeFileSync(join(dir, 'a.trace.jsonl'), text);
  writeFileSync(join(dir, 'a.trace.jsonl.gz'), gzipSync(text));
  for (const f of ['a.trace.jsonl', 'a.trace.jsonl.gz']) {
    const got = await readLines(join(dir, f), [0, 500, 999, 1200]);
    assert.deepEqual([...got.entries()].sort((a, b) => a[0] - b[0]), [[0, '{"n":0}'], [500, '{"n":500}'], [999, '{"n":999}']], f);
  }
});
