import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { headOf } from '../../../node/io/firstLine';
import { FileHead, HEAD_BYTES, nameMatches } from '../../../core/fileHead';

const dir = mkdtempSync(join(tmpdir(), 'head-'));
const file = (name: string, bytes: Uint8Array | string) => {
  writeFileSync(join(dir, name), bytes);
  return join(dir, name);
};

describe('the head detection reads', () => {
  it('is the first MB of a file, gunzipped for a .gz, without a BOM', () => {
    assert.equal(headOf(file('a.json', '\uFEFF{"traceEvents": []}')).text, '{"traceEvents": []}');
    assert.equal(headOf(file('a.json.gz', gzipSync('{"traceEvents": []}'))).text, '{"traceEvents": []}');
    assert.equal(headOf(file('big.json', 'x'.repeat(HEAD_BYTES + 10))).text.length, HEAD_BYTES);
    assert.equal(headOf(file('broken.json.gz', 'not gzip')).text, '');
  });

  it('of a gzip bomb stays within a MB (its first 256 KB inflate to 256 MB)', () => {
    const h = headOf(file('bomb.json.gz', gzipSync(Buffer.alloc(300 << 20, 32))));
    assert.equal(h.text.length, HEAD_BYTES);
  });

  it('keeps the bytes for a binary format, and its first line once', () => {
    const h = new FileHead('line one\r\nline two', new Uint8Array([0x93, 0x4e]));
    assert.equal(h.firstLine, 'line one');
    assert.deepEqual([...h.bytes!], [0x93, 0x4e]);
  });

  it('names match their globs whole, ignoring case, with * never crossing a folder', () => {
    assert.ok(nameMatches('*.trace.json.gz', 'Run.PT.Trace.JSON.gz'));
    assert.ok(nameMatches('perfetto_trace.json.gz', 'perfetto_trace.json.gz'));
    assert.ok(!nameMatches('perfetto_trace.json.gz', 'my_perfetto_trace.json.gz'));
    assert.ok(!nameMatches('*.jsonl', 'a/b.jsonl.gz'));
  });
});
