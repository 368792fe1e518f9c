import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LineDocument } from '../../../server/lineDocument';
import { compareDiagnostics } from '../../../core/common/diagnostic';
import { TraceDocument } from '../../../core/trace/document';

const TEXT = fc.array(fc.constantFrom('a', 'bc', '{"x":1}', '', 'é'), { maxLength: 12 }).map((ls) => ls.join('\n'));
const CHANGE = fc.record({ l1: fc.nat(14), c1: fc.nat(9), l2: fc.nat(14), c2: fc.nat(9), text: fc.constantFrom('', 'x', '\n', 'q\nr', '\n\n', 'z\n') });

describe('LineDocument', () => {
  it('matches TextDocument for any sequence of incremental changes', () => {
    fc.assert(fc.property(TEXT, fc.array(CHANGE, { maxLength: 6 }), (text, changes) => {
      const ref = TextDocument.create('u', 'x', 1, text);
      const doc = LineDocument.create('u', 'x', 1, text);
      let refDoc = ref;
      changes.forEach((c, k) => {
        const a = { line: c.l1, character: c.c1 }, b = { line: c.l2, character: c.c2 };
        // Normalise the range as an editor would send it: start before end, inside the document.
        const [s, e] = [refDoc.positionAt(refDoc.offsetAt(a)), refDoc.positionAt(refDoc.offsetAt(b))].sort((x, y) => x.line - y.line || x.character - y.character);
        const ch = { range: { start: s, end: e }, text: c.text };
        refDoc = TextDocument.update(refDoc, [ch], k + 2);
        doc.apply([ch], k + 2);
        assert.equal(doc.getText(), refDoc.getText());
        assert.equal(doc.lineCount, refDoc.lineCount);
      });
      for (let o = 0; o <= refDoc.getText().length; o++) assert.deepEqual(doc.positionAt(o), refDoc.positionAt(o));
    }), { numRuns: 400 });
  });

  it('re-parses only the edited lines into the same trace model as a full parse', () => {
    fc.assert(fc.property(fc.array(CHANGE, { maxLength: 5 }), (changes) => {
      const text = ['{"event_type": "CMD_ENQUEUE", "t_cycle": 1, "cmd_id": 1, "cmd_type": "M"}', '{"event_type": "CMD_START", "t_cycle": 2, "cmd_id": 1}', '{"event_type": "CMD_END", "t_cycle": 3, "cmd_id": 1}'].join('\n');
      const doc = LineDocument.create('u', 'npu-trace', 1, text);
      const model = TraceDocument.parse(text);
      changes.forEach((c, k) => {
        const s = doc.positionAt(doc.offsetAt({ line: c.l1, character: c.c1 }));
        const edits = doc.apply([{ range: { start: s, end: s }, text: c.text }], k + 2)!;
        model.update(edits, (i) => doc.line(i));
      });
      // The edited model keeps incremental checks, which list problems in their own order.
      assert.deepEqual([...model.allDiagnostics()].sort(compareDiagnostics), [...TraceDocument.parse(doc.getText()).allDiagnostics()].sort(compareDiagnostics));
    }), { numRuns: 200 });
  });
});
