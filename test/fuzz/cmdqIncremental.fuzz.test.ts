// Differential test of the incremental re-parse: after any single edit, re-parsing only the touched
// entries must give exactly what parsing the new text from scratch gives (or decline to try).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { CmdqDocument } from '../../core/cmdq/document';
import { reparseEdit } from '../../core/cmdq/incremental';
import { parseCmdq } from '../../core/cmdq/parser';
import type { ParsedCmdq } from '../../core/cmdq/model';
import type { LineEdit } from '../../core/common/lines';

const GOLDEN = readFileSync(resolve(__dirname, '../fixtures/cmdq/golden.cmdq.json'), 'utf8');

function view(p: ParsedCmdq) {
  return {
    entries: p.entries.map((e) => ({ index: e.index, start: e.start, end: e.end, kind: e.kind, obj: e.obj, id: e.id, opcode: e.opcode, layerId: e.layerId, broken: e.broken })),
    lineStarts: p.lineStarts, cmdqClose: p.cmdqClose, cmdqValue: p.cmdqValue, rootSpan: p.rootSpan, syntax: p.syntax,
  };
}

/** Replaces (line, char)..(line, char) by `insert` and describes it as the server does (DocumentStore.change). */
function edit(text: string, sl: number, sc: number, el: number, ec: number, insert: string): { text: string; edit: LineEdit } {
  const lines = text.split('\n');
  const off = (l: number, c: number) => lines.slice(0, l).reduce((n, x) => n + x.length + 1, 0) + c;
  const next = text.slice(0, off(sl, sc)) + insert + text.slice(off(el, ec));
  return { text: next, edit: { start: sl, end: el + 1, newCount: insert.split('\n').length } };
}

describe('cmdq incremental re-parse', () => {
  const lines = GOLDEN.split('\n');
  const entryLine = fc.integer({ min: 3, max: 8 });
  const change = fc.tuple(entryLine, fc.nat({ max: 120 }), fc.nat({ max: 6 }), fc.constantFrom('', '7', ', 3', '"x"', '}', '{', ',', ' ', '[]', '// c', '\n'));

  it('equals a full parse after any edit within an entry line', () => {
    fc.assert(fc.property(change, ([line, col, del, ins]) => {
      const l = lines[line];
      const c = Math.min(col, l.length);
      const e = edit(GOLDEN, line, c, line, Math.min(l.length, c + del), ins);
      const text = e.text;
      const inc = reparseEdit(parseCmdq(GOLDEN), text, e.edit);
      const full = parseCmdq(text);
      if (inc) {
        assert.deepEqual(view(inc), view(full));
        assert.deepEqual(new CmdqDocument(inc).allDiagnostics(), new CmdqDocument(full).allDiagnostics());
      }
    }), { numRuns: 500 });
  });

  it('takes the fast path for ordinary typing, deleting and inserting whole entries', () => {
    const typed = edit(GOLDEN, 6, lines[6].indexOf('[2]') + 2, 6, lines[6].indexOf('[2]') + 2, ', 1');
    const dup = edit(GOLDEN, 4, 0, 4, 0, lines[4] + '\n');
    const del = edit(GOLDEN, 4, 0, 5, 0, '');
    for (const x of [typed, dup, del]) {
      const inc = reparseEdit(parseCmdq(GOLDEN), x.text, x.edit);
      assert.ok(inc, JSON.stringify(x.edit));
      assert.deepEqual(view(inc), view(parseCmdq(x.text)));
    }
    const bracket = edit(GOLDEN, 2, lines[2].indexOf('['), 2, lines[2].indexOf('[') + 1, '{');
    assert.equal(reparseEdit(parseCmdq(GOLDEN), bracket.text, bracket.edit), undefined);
  });
});
