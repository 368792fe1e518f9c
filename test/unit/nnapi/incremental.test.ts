// The editor's analysis reuses the runs an edit did not touch. These tests pin down when a run may
// be reused and when it must not, on traces where the answer is known by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitLines } from '../../../core/common/lines';
import { NnapiDocument } from '../../../core/nnapi/document';
import { scopeAtLine } from '../../../core/nnapi/navigation';
import { thread, trace } from './traceBuilder';

// Two runs on the application thread; in run 0 a CPU scope of process 200, which is a driver
// process only because of a HIDL server mark in run 1.
const app = thread([
  [0, '[NN_LA_PO]run0'], [1, '[NN_LR_PE]ANeuralNetworksExecution_compute'], [5, 'E'], [6, 'E'],
  [10, '[NN_LA_PO]run1'], [11, '[NN_LR_PE]ANeuralNetworksExecution_compute'], [15, 'E'], [16, 'E'],
]);
const cpu = thread([[2, '[NN_LC_PE]op'], [3, 'E']], 201, 200, 'HwBinder:200_1');
const server = thread([[12, 'HIDL::IDevice::prepareModel_1_2::server'], [13, 'E']], 202, 200, 'HwBinder:200_2');
const text = trace(app, cpu, server);

function editLine(doc: NnapiDocument, lines: string[], i: number, to: string): string[] {
  const next = [...lines];
  next[i] = to;
  doc.update([{ start: i, end: i + 1, newCount: 1 }], (j) => next[j]);
  return next;
}

const lineOf = (lines: string[], s: string) => lines.findIndex((l) => l.includes(s));

describe('incremental analysis', () => {
  it('keeps the run an edit did not touch and rebuilds the one it did', () => {
    const lines = splitLines(text);
    const doc = NnapiDocument.parse(text);
    const [run0, run1] = doc.analysis.runs;
    assert.equal(doc.analysis.runs.length, 2);
    // Move the end of run 1's compute from 15 ms to 14 ms.
    const i = lines.findIndex((l, k) => k > lineOf(lines, 'run1') && l.includes('100.015000'));
    const next = editLine(doc, lines, i, lines[i].replace('100.015000', '100.014000'));
    assert.equal(doc.analysis.runs[0], run0, 'run 0 reused');
    assert.notEqual(doc.analysis.runs[1], run1, 'run 1 rebuilt');
    const fresh = NnapiDocument.parse(next.join('\n'));
    assert.deepEqual(doc.allDiagnostics(), fresh.allDiagnostics());
    const t = (d: NnapiDocument) => scopeAtLine(d.analysis, lineOf(next, 'run1'))!.scope;
    assert.equal(t(doc).elapsedMs().toFixed(3), '6.000');
    assert.equal(t(fresh).elapsedMs().toFixed(3), '6.000');
  });

  it('rebuilds an untouched run when an edit elsewhere makes its process a driver no more', () => {
    const lines = splitLines(text);
    const doc = NnapiDocument.parse(text);
    const op = lineOf(lines, '[NN_LC_PE]op');
    assert.equal(scopeAtLine(doc.analysis, op)!.scope.layer, 'LD', 'CPU code in a driver process is driver time');
    const hidl = lineOf(lines, '::server');
    editLine(doc, lines, hidl, lines[hidl].replace('::server', '::client'));
    assert.equal(scopeAtLine(doc.analysis, op)!.scope.layer, 'LC', 'process 200 is no driver now');
  });

  it('rebuilds the runs below a line inserted above them, with their new line numbers', () => {
    const lines = splitLines(text);
    const doc = NnapiDocument.parse(text);
    const run0 = doc.analysis.runs[0];
    const at = lineOf(lines, 'run1');
    const next = [...lines.slice(0, at), '# a comment', ...lines.slice(at)];
    doc.update([{ start: at, end: at, newCount: 1 }], (j) => next[j]);
    assert.equal(doc.analysis.runs[0], run0, 'run 0 is above the insertion');
    assert.equal(scopeAtLine(doc.analysis, at + 1)?.scope.fn, 'run1');
    assert.equal(scopeAtLine(doc.analysis, at), undefined);
    assert.deepEqual(doc.allDiagnostics(), NnapiDocument.parse(next.join('\n')).allDiagnostics());
  });
});
