import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeLines } from '../../../client/timeline/encodeLines';
import { MAX_SAVED_URI, mayRestore, savedUri } from '../../../client/timeline/restore';
import { splitLines } from '../../../core/common/lines';

describe('timeline panel restore', () => {
  it('takes the file URI only from state of the shape the page saves', () => {
    assert.equal(savedUri({ uri: 'file:///w/a.trace.jsonl', view: [0, 10], scrollY: 3 }), 'file:///w/a.trace.jsonl');
    assert.equal(savedUri({ uri: 'file:///w/a.trace.jsonl' }), 'file:///w/a.trace.jsonl');
    for (const bad of [undefined, null, 'file:///a', [], { uri: 5 }, { uri: '' }, { uri: 'file:///' + 'a'.repeat(MAX_SAVED_URI) },
      { uri: 'file:///a', view: 'x' }, { uri: 'file:///a', view: [0] }, { uri: 'file:///a', view: [0, '1'] }, { uri: 'file:///a', scrollY: '1' }]) {
      assert.equal(savedUri(bad), undefined, JSON.stringify(bad)?.slice(0, 60));
    }
  });

  it('restores without asking only a file the user has open or in the workspace', () => {
    assert.equal(mayRestore({ open: true, inWorkspace: false }), true);
    assert.equal(mayRestore({ open: false, inWorkspace: true }), true);
    assert.equal(mayRestore({ open: false, inWorkspace: false }), false);
  });
});

describe('encodeLines', () => {
  it('writes the lines joined by \\n as exact UTF-8, in a buffer of its own size', () => {
    const lines = ['{"a":1}', '', 'é€𝄞', 'x'.repeat(70_000), '\ud800 lone surrogate'];
    const bytes = encodeLines(lines.length, (i) => lines[i]);
    const expected = Buffer.from(lines.join('\n'), 'utf8');
    assert.equal(bytes.byteLength, expected.byteLength);
    assert.equal(bytes.buffer.byteLength, expected.byteLength, 'no slack is transferred');
    assert.ok(Buffer.from(bytes).equals(expected));
    assert.deepEqual(splitLines(new TextDecoder().decode(bytes)), lines.map((l) => l.replace('\ud800', '\ufffd')));
    assert.equal(encodeLines(0, () => '').byteLength, 0);
  });
});
