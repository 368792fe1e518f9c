// The Summary's pure parts: CSV cells (quotes, separators, formula prefix) and row sorting.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvCell, toCsv } from '../../../webview/csv';
import { formatCell, sortOrder } from '../../../webview/summaryTables';

test('CSV: quotes doubled, separators and line breaks quoted, formulas made text', () => {
  assert.equal(csvCell('LN1'), 'LN1');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
  assert.equal(csvCell('+1'), `"'+1"`);
  assert.equal(csvCell('-2'), `"'-2"`);
  assert.equal(csvCell('@SUM(A1)'), `"'@SUM(A1)"`);
  assert.equal(csvCell('\t=1'), `"'\t=1"`);
  assert.equal(csvCell(-5), '-5', 'a number is a number');
  assert.equal(csvCell(0.25), '0.25');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(' padded '), '" padded "');
  assert.equal(toCsv(['phase', 'max'], [['=x', 3], ['b', null]]), `phase,max\r\n"'=x",3\r\nb,\r\n`);
});

test('sorting: numbers as numbers, text with digits numerically, empty last, ties stable', () => {
  const rows = [['L10', 5], ['L2', null], ['L1', 30], ['L2', 5]];
  assert.deepEqual(sortOrder(rows, 1, -1), [2, 0, 3, 1], 'largest first, null last, ties in order');
  assert.deepEqual(sortOrder(rows, 1, 1), [0, 3, 2, 1], 'smallest first, null still last');
  assert.deepEqual(sortOrder(rows, 0, 1), [2, 1, 3, 0], 'L1 < L2 < L10');
  assert.deepEqual(sortOrder(rows, 0, -1), [0, 1, 3, 2]);
});

test('cells: percentages, grouped integers, absent values', () => {
  assert.equal(formatCell(0.75, 'pct'), '75.0%');
  assert.equal(formatCell(1234567, 'int'), '1,234,567');
  assert.equal(formatCell(null, 'int'), '—');
  assert.equal(formatCell('<b>', 'text'), '<b>');
});
