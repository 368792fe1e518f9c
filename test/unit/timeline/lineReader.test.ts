import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { splitLines } from '../../../core/common/lines';
import { FileLines, LineIndex } from '../../../client/timeline/lineReader';

const dir = mkdtempSync(join(tmpdir(), 'timeline-lines-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('LineIndex', () => {
  it('finds the checkpoint at or before a line, and stays within its size by thinning', () => {
    const ix = new LineIndex(4, 8);
    for (let l = 0; l <= 200; l++) ix.add(l, l * 10);
    assert.ok(ix.size <= 8, `${ix.size} entries`);
    for (const l of [0, 3, 64, 65, 127, 200]) {
      const c = ix.seek(l);
      assert.ok(c.line <= l && c.offset === c.line * 10, `line ${l} → ${JSON.stringify(c)}`);
    }
    assert.ok(ix.seek(200).line >= 128, 'a late line seeks near it');
  });
});

describe('FileLines', () => {
  it('reads the lines splitLines gives, with any line ends across chunk boundaries, plain and .gz, in any order of clicks', async () => {
    const LINE = fc.array(fc.constantFrom('a', 'é', '{"n":1}', '€', '𝄞', 'xyz'), { maxLength: 6 }).map((p) => p.join(''));
    const EOL = fc.constantFrom('\n', '\r\n', '\r');
    const TEXT = fc.array(fc.tuple(LINE, EOL), { maxLength: 30 }).chain((ls) => LINE.map((tail) => ls.map(([l, e]) => l + e).join('') + tail));
    let k = 0;
    await fc.assert(fc.asyncProperty(TEXT, fc.array(fc.array(fc.nat(34), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 9 }), async (text, clicks, chunk) => {
      const lines = splitLines(text);
      const plain = join(dir, `p${k}.trace.jsonl`);
      const gz = join(dir, `p${k++}.trace.jsonl.gz`);
      writeFileSync(plain, text);
      writeFileSync(gz, gzipSync(text));
      for (const file of [plain, gz]) {
        const r = new FileLines(file, chunk, 2);
        try {
          for (const wanted of clicks) {
            const got = await r.read(wanted);
            const expected = [...new Set(wanted)].filter((l) => l < lines.length).sort((a, b) => a - b).map((l) => [l, lines[l]]);
            assert.deepEqual([...got.entries()].sort((a, b) => a[0] - b[0]), expected, `${file} ${JSON.stringify(wanted)}`);
          }
        } finally {
          r.dispose();
        }
      }
    }), { numRuns: 150 });
  });

  const big = Array.from({ length: 100_000 }, (_, i) => `{"event_type":"X","t_cycle":${i},"pad":"${'p'.repeat(i % 50)}"}`).join('\n');
  const lineBytes = 80;

  it('a later click in a plain file reads from the checkpoint before its line, not from the top', async () => {
    const file = join(dir, 'big.trace.jsonl');
    writeFileSync(file, big);
    const r = new FileLines(file);
    assert.equal((await r.read([90_000])).get(90_000), `{"event_type":"X","t_cycle":90000,"pad":"${'p'.repeat(0)}"}`);
    const got = await r.read([60_500, 60_501]);
    assert.equal(got.get(60_500), big.split('\n')[60_500]);
    assert.ok(r.lastReadBytes < 1100 * lineBytes, `read ${r.lastReadBytes} bytes for a click at line 60 500`);
    r.dispose();
  });

  it('a click further down a .gz reads on from the last position; one above it starts again', async () => {
    const file = join(dir, 'big.trace.jsonl.gz');
    writeFileSync(file, gzipSync(big));
    const r = new FileLines(file);
    await r.read([50_000]);
    const on = await r.read([50_010]);
    assert.equal(on.get(50_010), big.split('\n')[50_010]);
    assert.ok(r.lastReadBytes < 100 * lineBytes, `read ${r.lastReadBytes} bytes to go 10 lines further`);
    const back = await r.read([10]);
    assert.equal(back.get(10), big.split('\n')[10]);
    r.dispose();
  });

  it('forgets its index when the file changes on disk', async () => {
    const file = join(dir, 'changing.trace.jsonl');
    writeFileSync(file, Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n'));
    const r = new FileLines(file);
    await r.read([4000]);
    writeFileSync(file, Array.from({ length: 5000 }, (_, i) => `L${i}`).join('\n'));
    assert.equal((await r.read([3000])).get(3000), 'L3000');
    r.dispose();
  });

  it('reads a wanted line in a run of empty lines (the splitter counts runs without handing them on)', async () => {
    for (const name of ['blank.trace.jsonl', 'blank.trace.jsonl.gz']) {
      const file = join(dir, name);
      const text = `a\n${'\n'.repeat(50)}b\r\n\r\n\rc`;
      writeFileSync(file, name.endsWith('.gz') ? gzipSync(text) : text);
      const r = new FileLines(file, 16, 4);
      const want = [0, 2, 3, 40, 51, 52, 53, 54];
      const got = await r.read(want);
      assert.deepEqual(want.map((l) => got.get(l)), ['a', '', '', '', 'b', '', '', 'c'], name);
      assert.deepEqual([...(await r.read([30, 60])).entries()], [[30, '']], name);
      r.dispose();
    }
  });
});
