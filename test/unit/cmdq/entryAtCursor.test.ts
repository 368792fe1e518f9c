// Which entry the graph selects for an editor cursor (client/cmdq/entryAtCursor.ts), on the golden
// queue's entry ranges as the graph worker computes them. Found by the E2E journey: Ctrl+G onto an
// entry's line puts the cursor in its indentation, and the graph used to select nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { entryAtCursor } from '../../../client/cmdq/entryAtCursor';
import { CmdqDocument } from '../../../core/cmdq/document';

const ROOT = resolve(__dirname, '../../..');

function cursorOn(text: string): (line: number, col: number) => [number, number, number] {
  const lines = text.split('\n');
  const starts: number[] = [];
  for (let k = 0, o = 0; k < lines.length; o += lines[k].length + 1, k++) starts.push(o);
  return (line, col) => [starts[line] + col, starts[line], starts[line] + lines[line].length];
}

test('the cursor anywhere on an entry\'s line selects that entry; on a line without an entry, none', () => {
  const text = readFileSync(join(ROOT, 'examples/golden.cmdq.json'), 'utf8');
  const p = CmdqDocument.parse(text).parsed;
  const starts = p.entries.map((e) => e.start), ends = p.entries.map((e) => e.end);
  const at = cursorOn(text);
  const lines = text.split('\n');
  for (let i = 0; i < 6; i++) {
    const line = 3 + i;
    assert.equal(entryAtCursor(starts, ends, ...at(line, 0)), i, `line ${line + 1}, column 1 (indentation)`);
    assert.equal(entryAtCursor(starts, ends, ...at(line, lines[line].indexOf('"id"'))), i, `line ${line + 1}, inside`);
    assert.equal(entryAtCursor(starts, ends, ...at(line, lines[line].length)), i, `line ${line + 1}, end of line (after the comma)`);
  }
  for (const line of [0, 1, 2, 9, 10]) assert.equal(entryAtCursor(starts, ends, ...at(line, 0)), -1, `line ${line + 1}`);
});

test('several entries on one line: inside one selects it, the indentation the first; a multi-line entry keeps its own lines', () => {
  const text = '{"cmdq": [\n  {"opcode": "END", "id": 0, "deps_before": []}, {"opcode": "END", "id": 1, "deps_before": []},\n  {"opcode": "END",\n   "id": 2, "deps_before": []}\n]}\n';
  const p = CmdqDocument.parse(text).parsed;
  const starts = p.entries.map((e) => e.start), ends = p.entries.map((e) => e.end);
  const at = cursorOn(text);
  assert.equal(entryAtCursor(starts, ends, ...at(1, 0)), 0);
  assert.equal(entryAtCursor(starts, ends, ...at(1, text.split('\n')[1].lastIndexOf('"id"'))), 1);
  assert.equal(entryAtCursor(starts, ends, ...at(1, text.split('\n')[1].indexOf('}, {') + 2)), 0, 'between the two, on the comma: the one before');
  assert.equal(entryAtCursor(starts, ends, ...at(3, 0)), 2, 'inside entry 2, on its second line');
  assert.equal(entryAtCursor(starts, ends, ...at(4, 0)), -1);
});

test('a minified queue (one line): the cursor on a comma selects the entry before it, not the first of the line', () => {
  const text = '{"cmdq":[' + [0, 1, 2].map((i) => `{"opcode":"END","id":${i},"deps_before":[]}`).join(',') + ']}';
  const p = CmdqDocument.parse(text).parsed;
  const starts = p.entries.map((e) => e.start), ends = p.entries.map((e) => e.end);
  const comma = text.indexOf(',{"opcode"', text.indexOf('"id":1'));
  assert.equal(entryAtCursor(starts, ends, comma, 0, text.length), 1);
  assert.equal(entryAtCursor(starts, ends, text.length, 0, text.length), 2, 'after the last entry');
});
