// A Chrome trace written as one JSON line (json.dump without indent): each item knows the
// characters of its events, so cursor → slice and slice → selection work on that line.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTimeline } from '../../../core/detectFormat';
import { FLAG } from '../../../core/timeline/model';
import { itemAtPosition, sourceSpot } from '../../../core/timeline/sourcePosition';
import { lineFields, spanText } from '../../../client/timeline/fields';
import { parseHostMessage, parseWebviewMessage } from '../../../protocol/timeline';

const FIX = join(__dirname, '..', '..', 'fixtures', 'chrome');
const TEXT = readFileSync(join(FIX, 'one-line.pt.trace.json'), 'utf8');
const LINES = TEXT.split('\n');

describe('one-line Chrome trace: items by character', () => {
  const m = buildTimeline('one-line.pt.trace.json', LINES)!;
  const items = m.items;

  it('is one line holding every event', () => {
    assert.equal(LINES.filter((l) => l).length, 1);
    assert.equal(items.start.length, 50, "48 X, a B/E pair and an instant");
    assert.ok(m.chars, 'the model carries characters');
  });

  it("maps every item to its event's own text on the line, not to the whole line", () => {
    const events = (JSON.parse(TEXT) as { traceEvents: Record<string, unknown>[] }).traceEvents;
    for (let i = 0; i < items.start.length; i++) {
      const spot = sourceSpot(m, i)!;
      assert.equal(spot.line, 0);
      const o = JSON.parse(LINES[0].slice(spot.char, spot.charEnd)) as Record<string, unknown>;
      assert.equal(o.ts, items.start[i], `item ${i} starts at its event's ts`);
      if (!(items.flags[i] & FLAG.instant)) assert.equal(m.strings[items.name[i]], o.name);
      assert.ok(events.some((e) => e.ts === o.ts && e.name === o.name));
    }
  });

  it('finds the item under the cursor anywhere in its event, and none between events', () => {
    const launch = LINES[0].indexOf('"name":"ampere_sgemm_64x64_nn_1"');
    const k = itemAtPosition(m, 0, launch + 5);
    assert.equal(m.strings[items.name[k]], 'ampere_sgemm_64x64_nn_1');
    const spot = sourceSpot(m, k)!;
    assert.equal(itemAtPosition(m, 0, spot.char), k, 'on its "{"');
    assert.equal(itemAtPosition(m, 0, spot.charEnd - 1), k, 'on its "}"');
    assert.notEqual(itemAtPosition(m, 0, spot.charEnd), k, 'the "," after it is not in it');
    assert.equal(itemAtPosition(m, 0, 0), -1, 'the top-level "{" is no event');
    assert.equal(itemAtPosition(m, 1, 0), -1);
  });

  it('maps the E event of a B/E pair to its slice too, with its own characters', () => {
    const b = itemAtPosition(m, 0, LINES[0].indexOf('"ph":"B"'));
    const e = itemAtPosition(m, 0, LINES[0].indexOf('"ph":"E"'));
    assert.ok(b >= 0);
    assert.equal(e, b);
    const end = sourceSpot(m, b, true)!;
    assert.deepEqual(JSON.parse(LINES[0].slice(end.char, end.charEnd)), { ph: 'E', pid: 1234, tid: 1240, ts: 1700000000600 });
    assert.equal(items.end[b] - items.start[b], 100);
  });

  it('keeps no characters for a file with one event per line (the line says it all)', () => {
    const pretty = buildTimeline('pytorch.pt.trace.json', readFileSync(join(FIX, 'pytorch.pt.trace.json'), 'utf8').split('\n'))!;
    assert.equal(pretty.chars, undefined);
    assert.equal(itemAtPosition(pretty, 5, 3), -1);
  });
});

describe('one-line Chrome trace: the messages and the details of one event', () => {
  it('carries the cursor character to the page and the event characters back, checked on both sides', () => {
    assert.deepEqual(parseHostMessage({ type: 'selectLine', line: 0, character: 120 }), { type: 'selectLine', line: 0, character: 120 });
    assert.equal(parseHostMessage({ type: 'selectLine', line: 0, character: -1 }), undefined);
    const sel = { type: 'select', line: 0, endLine: 0, reveal: true, span: [10, 90], endSpan: [95, 140] };
    assert.deepEqual(parseWebviewMessage(sel), sel);
    assert.deepEqual(parseWebviewMessage({ type: 'select', line: 0, endLine: null, reveal: false }), { type: 'select', line: 0, endLine: null, reveal: false });
    for (const span of [[5, 4], [1], [0, 1.5], 'x', [-1, 3]]) assert.equal(parseWebviewMessage({ ...sel, span }), undefined, JSON.stringify(span));
  });

  it("shows the fields of the selected event, not the file's top-level keys", () => {
    const m = buildTimeline('one-line.pt.trace.json', LINES)!;
    const k = itemAtPosition(m, 0, LINES[0].indexOf('"name":"aten::linear"'));
    const spot = sourceSpot(m, k)!;
    const fields = new Map(lineFields(spanText(LINES[0], [spot.char, spot.charEnd])));
    assert.equal(fields.get('name'), '"aten::linear"');
    assert.equal(fields.get('dur'), '80');
    assert.equal(spanText('short', [2, 99]), 'ort');
    assert.equal(spanText('short', [99, 120]), '');
  });
});
