import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentStore, MAX_PENDING_EDITS, MAX_PENDING_SHIFTS } from '../../../server/documents';
import type { FormatService, LineEdit } from '../../../server/formatService';

/** A format that records what the store asks of it; its model is the text it last saw. */
function recorder(opts: { throwOn?: string } = {}) {
  const calls: { kind: 'parse' | 'update'; edits?: readonly LineEdit[] }[] = [];
  const service: FormatService<string> = {
    formatId: 'rec',
    parse: (doc) => {
      calls.push({ kind: 'parse' });
      const t = doc.getText();
      if (opts.throwOn && t.includes(opts.throwOn)) throw new Error('parse failed');
      return t;
    },
    update: (_m, doc, edits) => {
      calls.push({ kind: 'update', edits: [...edits] });
      return doc.getText();
    },
    diagnostics: () => [],
  };
  return { calls, store: new DocumentStore([service as FormatService]) };
}

const at = (line: number, character: number) => ({ line, character });

describe('DocumentStore', () => {
  it('applies queued changes to the text at once and updates the model once, with every edit in order, on the next get', () => {
    const { calls, store } = recorder();
    store.open('u', 'rec', 1, 'a\nb\nc');
    assert.equal(store.get('u')!.model, 'a\nb\nc');
    calls.length = 0;
    store.change('u', 2, [{ range: { start: at(0, 1), end: at(0, 1) }, text: 'x' }]);
    store.change('u', 3, [{ range: { start: at(1, 0), end: at(1, 0) }, text: 'new\n' }]);
    store.change('u', 4, [{ range: { start: at(3, 0), end: at(3, 1) }, text: 'C' }]);
    assert.deepEqual(calls, [], 'no model work while changes arrive');
    const e = store.get('u')!;
    assert.equal(e.doc.getText(), 'ax\nnew\nb\nC');
    assert.equal(e.doc.version, 4);
    assert.equal(e.model, 'ax\nnew\nb\nC');
    assert.deepEqual(calls, [{ kind: 'update', edits: [{ start: 0, end: 1, newCount: 1 }, { start: 1, end: 2, newCount: 2 }, { start: 3, end: 4, newCount: 1 }] }]);
    store.get('u');
    assert.equal(calls.length, 1, 'an up-to-date model is not updated again');
  });

  it('parses whole after a full replacement, past MAX_PENDING_EDITS edits or past MAX_PENDING_SHIFTS line insertions', () => {
    const { calls, store } = recorder();
    store.open('u', 'rec', 1, 'a');
    store.get('u');
    calls.length = 0;
    store.change('u', 2, [{ range: { start: at(0, 0), end: at(0, 0) }, text: 'y' }, { text: 'whole\nnew' }]);
    assert.equal(store.get('u')!.model, 'whole\nnew');
    assert.deepEqual(calls, [{ kind: 'parse' }]);
    calls.length = 0;
    for (let i = 0; i <= MAX_PENDING_EDITS; i++) store.change('u', 3 + i, [{ range: { start: at(0, 0), end: at(0, 0) }, text: 'z' }]);
    assert.equal(store.get('u')!.model, `${'z'.repeat(MAX_PENDING_EDITS + 1)}whole\nnew`);
    assert.deepEqual(calls, [{ kind: 'parse' }]);
    calls.length = 0;
    for (let i = 0; i < MAX_PENDING_SHIFTS; i++) store.change('u', 9000 + i, [{ range: { start: at(0, 0), end: at(0, 0) }, text: '\n' }]);
    store.get('u');
    assert.equal(calls.length, 1);
    assert.equal(calls[0].kind, 'update', 'up to MAX_PENDING_SHIFTS line insertions are one update');
    calls.length = 0;
    for (let i = 0; i <= MAX_PENDING_SHIFTS; i++) store.change('u', 9100 + i, [{ range: { start: at(0, 0), end: at(0, 0) }, text: '\n' }]);
    store.get('u');
    assert.deepEqual(calls, [{ kind: 'parse' }]);
  });

  it('keeps what a failing format threw, and clears it once the text parses again', () => {
    const { store } = recorder({ throwOn: 'BOOM' });
    store.open('u', 'rec', 1, 'BOOM');
    let e = store.get('u')!;
    assert.equal(e.model, undefined);
    assert.match(String(e.failure), /parse failed/);
    store.change('u', 2, [{ range: { start: at(0, 0), end: at(0, 4) }, text: 'ok' }]);
    e = store.get('u')!;
    assert.equal(e.model, 'ok');
    assert.equal(e.failure, undefined);
  });

  it('reads any change range, reversed or outside the text, as vscode-languageserver-textdocument does', () => {
    const TEXT = fc.array(fc.constantFrom('a', 'bc', '', 'é', '{"x":1}'), { maxLength: 8 }).map((ls) => ls.join('\n'));
    const POS = fc.record({ line: fc.integer({ min: -2, max: 10 }), character: fc.integer({ min: -2, max: 9 }) });
    const CHANGE = fc.record({ start: POS, end: POS, text: fc.constantFrom('', 'x', '\n', 'q\nr', 'z\n') });
    fc.assert(fc.property(TEXT, fc.array(fc.array(CHANGE, { minLength: 1, maxLength: 3 }), { maxLength: 5 }), (text, batches) => {
      const { store } = recorder();
      store.open('u', 'rec', 1, text);
      let ref = TextDocument.create('u', 'rec', 1, text);
      batches.forEach((b, k) => {
        const changes = b.map((c) => ({ range: { start: c.start, end: c.end }, text: c.text }));
        // One change at a time on a fresh document: the library's incremental line offsets go
        // wrong after a range past the last line (it splices them at the unclamped line), its text does not.
        for (const c of changes) ref = TextDocument.update(TextDocument.create('u', 'rec', k + 2, ref.getText()), [c], k + 2);
        store.change('u', k + 2, changes);
        assert.equal(store.get('u')!.doc.getText(), ref.getText());
      });
    }), { numRuns: 500 });
  });
});
