// TraceDocument: line ends, BOM, and incremental updates that must equal a full re-parse.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareDiagnostics } from '../../../core/common/diagnostic';
import type { LineEdit } from '../../../core/common/lines';
import { defaultDiagnosticSettings } from '../../../core/common/settings';
import { TraceDocument } from '../../../core/trace/document';
import { TraceChecks } from '../../../core/trace/incrementalChecks';
import { fixture } from './helpers';
import { indexShape } from './indexShape';
import { traceLine } from './lineGen';

function codes(doc: TraceDocument): string[] {
  return doc.diagnostics(defaultDiagnosticSettings).map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.character}:${d.code}`);
}

describe('TraceDocument: line ends', () => {
  const lf = fixture('end-before-start.trace.jsonl') + fixture('unknown-cmd.trace.jsonl');
  const expected = codes(TraceDocument.parse(lf));

  it('the fixture mix has problems to compare', () => assert.ok(expected.length >= 3, expected.join()));
  it('CRLF gives the same diagnostics at the same positions', () => assert.deepEqual(codes(TraceDocument.parse(lf.replace(/\n/g, '\r\n'))), expected));
  it('lone CR line ends too', () => assert.deepEqual(codes(TraceDocument.parse(lf.replace(/\n/g, '\r'))), expected));
  it('a missing final newline changes nothing', () => assert.deepEqual(codes(TraceDocument.parse(lf.replace(/\n$/, ''))), expected));
  it('a BOM at the start shifts only line 1 columns by one', () => {
    // Line 1 has problems of its own (a schema one and cross-line ones), so its columns are checked.
    const text = '{"event_type":"CMD_END","t_cycle":1,"cmd_id":7,"status":"FAIL"}\n' + lf;
    const plain = codes(TraceDocument.parse(text));
    const onLine1 = plain.filter((c) => c.startsWith('0:'));
    assert.ok(onLine1.length >= 2, plain.join());
    const shifted = plain.map((c) => c.replace(/^0:(\d+)-(\d+):/, (_, a: string, b: string) => `0:${Number(a) + 1}-${Number(b) + 1}:`));
    const doc = TraceDocument.parse('\uFEFF' + text);
    assert.deepEqual(codes(doc), shifted);
    assert.equal(doc.lines[0].type, 'CMD_END');
  });
  it('an empty file and a file of blank lines have no diagnostics', () => {
    assert.deepEqual(codes(TraceDocument.parse('')), []);
    assert.deepEqual(codes(TraceDocument.parse('\n\n  \n\r\n')), []);
  });
});

describe('TraceDocument.update', () => {
  it('re-parses only the edited lines', () => {
    const text = fixture('valid-all-events.trace.jsonl');
    const doc = TraceDocument.parse(text);
    const before = doc.lines.slice();
    const lines = text.split('\n');
    lines[3] = lines[3].replace('"cmd_id":42', '"cmd_id":44');
    doc.update([{ start: 3, end: 4, newCount: 1 }], (i) => lines[i]);
    doc.lines.forEach((l, i) => (i === 3 ? assert.notEqual(l, before[i]) : assert.equal(l, before[i], `line ${i} was re-parsed`)));
    assert.deepEqual(codes(doc), codes(TraceDocument.parse(lines.join('\n'))));
    assert.ok(codes(doc).some((c) => c.startsWith('3:') && c.endsWith('trace.unknown-cmd')));
  });

  it('inserting and deleting lines moves the diagnostics of later lines', () => {
    const text = fixture('unmatched-end.trace.jsonl');
    const doc = TraceDocument.parse(text);
    assert.deepEqual(codes(doc).map((c) => c.split(':')[0]), ['2']);
    const lines = text.split('\n');
    lines.splice(0, 0, '{"event_type":"IRQ_EMIT","t_cycle":0}', '');
    doc.update([{ start: 0, end: 0, newCount: 2 }], (i) => lines[i]);
    assert.deepEqual(codes(doc).map((c) => c.split(':')[0]), ['4']);
    lines.splice(0, 3);
    doc.update([{ start: 0, end: 3, newCount: 0 }], (i) => lines[i]);
    // The DMA_START went with the deleted lines: now both ENDs are unmatched.
    assert.deepEqual(codes(doc).map((c) => c.split(':').pop()), ['trace.unmatched-end', 'trace.unmatched-end']);
    assert.deepEqual(codes(doc), codes(TraceDocument.parse(lines.join('\n'))));
  });

  it('checks that threw while built in slices are built again, not left half built', () => {
    const lines = (fixture('end-before-start.trace.jsonl') + fixture('unknown-cmd.trace.jsonl')).split('\n');
    const doc = TraceDocument.parse(lines.join('\n'));
    lines[0] = `${lines[0]} `;
    doc.update([{ start: 0, end: 1, newCount: 1 }], (i) => lines[i]);
    const proto = TraceChecks.prototype as unknown as { checkGroup: () => void };
    const checkGroup = proto.checkGroup;
    proto.checkGroup = () => {
      throw new Error('injected');
    };
    try {
      assert.throws(() => doc.prepare(() => true), /injected/);
    } finally {
      proto.checkGroup = checkGroup;
    }
    assert.deepEqual(codes(doc), codes(TraceDocument.parse(lines.join('\n'))));
    assert.ok(codes(doc).length >= 3);
  });

  it('property: any sequence of line edits equals a full re-parse (diagnostics and index)', () => {
    const edit = fc.record({ at: fc.nat({ max: 40 }), del: fc.nat({ max: 4 }), add: fc.array(traceLine, { maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(traceLine, { maxLength: 30 }), fc.array(fc.array(edit, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }), fc.boolean(),
        fc.array(fc.option(fc.nat({ max: 3 })), { minLength: 4, maxLength: 4 }),
        (initial, batches, peek, slices) => {
          let lines = initial.length ? initial : [''];
          const doc = TraceDocument.parse(lines.join('\n'));
          for (const [b, batch] of batches.entries()) {
            if (peek) {
              // Fill the caches so the update must invalidate them.
              doc.allDiagnostics();
              assert.ok(doc.index);
            }
            // Or one update per edit, with validation cut short (a build of the checks in
            // slices, or none at all) before the next one.
            const steps = slices[b];
            const edits: LineEdit[] = [];
            for (const e of batch) {
              const start = Math.min(e.at, lines.length);
              const end = Math.min(start + e.del, lines.length);
              let add = e.add;
              // A document always has at least one line, as in LSP.
              if (lines.length - (end - start) + add.length === 0) add = [''];
              lines = [...lines.slice(0, start), ...add, ...lines.slice(end)];
              edits.push({ start, end, newCount: add.length });
              if (steps === null) continue;
              const now = lines;
              doc.update(edits.splice(0), (i) => now[i]);
              let left = steps;
              doc.prepare(() => left-- > 0);
            }
            if (edits.length) doc.update(edits, (i) => lines[i]);
            const full = TraceDocument.parse(lines.join('\n'));
            assert.deepEqual(doc.lines.map((l) => l.text), lines);
            // The incremental checks list problems in their own order; as a set they must agree.
            assert.deepEqual([...doc.allDiagnostics()].sort(compareDiagnostics), [...full.allDiagnostics()].sort(compareDiagnostics));
            assert.deepEqual(doc.diagnostics(defaultDiagnosticSettings), full.diagnostics(defaultDiagnosticSettings));
            assert.deepEqual(indexShape(doc.index, lines.length), indexShape(full.index, lines.length));
          }
        }),
      { numRuns: 150 },
    );
  });
});
