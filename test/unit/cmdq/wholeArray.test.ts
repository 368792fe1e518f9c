// A `cmdq` array JSON.parse takes whole is parsed without first finding its elements, and their
// offsets are found only when a problem, a hover or a fix asks (issue #31). These cases check that
// what is reported lands where the split path put it, whatever follows the array.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CmdqDocument } from '../../../core/cmdq/document';
import { splitArray } from '../../../core/json/split';
import { cmdqFull } from '../../gen/cmdqGen';

/** The text each diagnostic's range covers. */
function covered(doc: CmdqDocument, text: string): string[] {
  return doc.allDiagnostics().map((d) => text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)));
}

/** Every entry's offsets against the bracket matcher's, read from the parsed document. */
function assertSpans(text: string): void {
  const doc = CmdqDocument.parse(text);
  const open = doc.parsed.cmdqValue!.start;
  const spans = splitArray(text, open)!;
  assert.deepEqual(doc.parsed.entries.map((e) => [e.start, e.end]), spans.starts.map((s, i) => [s, spans.ends[i]]));
  assert.equal(doc.parsed.cmdqClose, spans.close);
}

const entry = (id: number, deps: number[]) => `{ "opcode": "VE_ADD_TILE", "id": ${id}, "layer_id": "l", "deps_before": [${deps.join(', ')}], "ve_id": 0, "length": 8, "qbits_activation": 8 }`;
const end = (id: number) => `{ "opcode": "END", "id": ${id}, "layer_id": null, "deps_before": [${id - 1}] }`;

describe('cmdq array parsed whole, offsets found on demand', () => {
  it('a wrong id is reported on the entry it is in, with metadata after the array holding arrays of its own', () => {
    const text = `{\n  "cmdq": [\n    ${entry(0, [])},\n    ${entry(7, [0])},\n    ${end(2)}\n  ],\n  "metadata": { "graph_name": "g", "tags": ["a", "]"], "shape": [1, 2] }\n}`;
    const doc = CmdqDocument.parse(text);
    assert.deepEqual(doc.allDiagnostics().map((d) => d.code).sort(), ['cmdq.end-deps', 'cmdq.id-mismatch', 'cmdq.unknown-dep']);
    assert.ok(covered(doc, text).includes('7'), 'the id-mismatch covers the id');
    assertSpans(text);
  });

  it('a "]" in a comment after the array does not move its end', () => {
    const text = `{ "cmdq": [${entry(0, [])}, ${entry(1, [0, 0])}, ${end(2)}] // done ]\n}`;
    const doc = CmdqDocument.parse(text);
    assert.deepEqual(doc.allDiagnostics().map((d) => d.code), ['cmdq.duplicate-dep']);
    const d = doc.allDiagnostics()[0];
    // The second 0 of entry 1's deps_before.
    assert.equal(doc.offsetAt(d.range.start), text.indexOf('[0, 0]') + 4);
    assertSpans(text);
  });

  it('the realistic queue is clean, and a mistake deep in it is located as in the text', () => {
    const text = cmdqFull(2000);
    assert.deepEqual(CmdqDocument.parse(text).allDiagnostics(), []);
    const bad = text.replace('"qbits": 8,\n      "dram_addr": 2148204544', '"qbits": 3,\n      "dram_addr": 2148204544');
    assert.notEqual(bad, text);
    const doc = CmdqDocument.parse(bad);
    const d = doc.allDiagnostics();
    assert.deepEqual(d.map((x) => x.code), ['cmdq.invalid-value']);
    assert.equal(bad.slice(doc.offsetAt(d[0].range.start), doc.offsetAt(d[0].range.end)), '3');
    assertSpans(bad);
  });

  it('a queue with a comment inside the array still takes the split path and gives the same offsets', () => {
    const text = `{ "cmdq": [${entry(0, [])}, /* x */ ${entry(1, [0])}, ${end(2)}] }`;
    assert.deepEqual(CmdqDocument.parse(text).allDiagnostics(), []);
    assertSpans(text);
  });
});
