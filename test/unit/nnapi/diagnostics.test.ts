import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnostic } from '../../../core/common/diagnostic';
import { analyzeText, codes } from './helpers';
import { benchmarkTrace } from './traces';
import { HEADER, row, thread, trace } from './traceBuilder';

function only(diags: Diagnostic[], code: string): Diagnostic[] {
  return diags.filter((d) => d.code === code);
}

/** Line numbers below count the 4 header lines of `trace()`. */
const H = HEADER.length;

describe('nnapi diagnostics', () => {
  it('nnapi.phase-nesting: PC inside PP, at the inner tag, related to the parent', () => {
    const text = trace(thread([[0, '[NN_LR_PP]prepare'], [2, '[NN_LR_PC]compile'], [5, 'E'], [10, 'E']]));
    const doc = analyzeText(text);
    const d = only(doc.allDiagnostics(), 'nnapi.phase-nesting');
    assert.equal(d.length, 1);
    assert.equal(d[0].range.start.line, H + 1);
    const lineText = text.split('\n')[H + 1];
    assert.equal(lineText.slice(d[0].range.start.character, d[0].range.end.character), '[NN_LR_PC]');
    assert.match(d[0].message, /'compile'.*PC \(Compilation\).*'prepare'.*PP \(Preparation\).*phase rule.*\[SW\].*\[SUB\]/);
    assert.equal(d[0].related?.[0].range.start.line, H);
    assert.deepEqual(codes(doc), ['nnapi.phase-nesting']);
  });

  it('nnapi.layer-nesting: LA inside LR and LD directly inside LR of a driver', () => {
    const text = trace(
      thread([[0, '[NN_LR_PC]r'], [1, '[NN_LA_PC]a'], [2, 'E'], [3, 'E']]),
      // process 200 is a driver (IDevice server): LD stays LD, and LD directly inside LR breaks the layer rule.
      thread([[10, 'HIDL::IDevice::prepareModel::server'], [11, 'E'], [12, '[NN_LR_PC]x'], [13, '[NN_LD_PC]d'], [14, 'E'], [15, 'E']], 201, 200),
    );
    const doc = analyzeText(text);
    const d = only(doc.allDiagnostics(), 'nnapi.layer-nesting');
    assert.equal(d.length, 2, 'every violation, not only the first');
    assert.match(d[0].message, /'a'.*LA \(Application\).*'r'.*LR \(Runtime\).*layer rule.*\[SUB\]/);
    assert.match(d[1].message, /'d'.*LD \(Driver\)/);
  });

  it('a violation marked [SUB] is accepted, and the accepted benchmark trace has no nesting diagnostic', () => {
    const doc = analyzeText(trace(thread([[0, '[NN_LR_PC]r'], [1, '[SUB][NN_LA_PC]a'], [2, 'E'], [3, 'E']])));
    assert.deepEqual(codes(doc), []);
    assert.deepEqual(codes(analyzeText(benchmarkTrace())), []);
  });

  it('nesting is checked after the rewriting: PI under PP and LR_PC under LA_PBM are moved, not reported', () => {
    // LR_PC under LA_PBM would break the phase rule (PC is not a subphase of PBM), but step 3(c) copies it
    // up and marks it subtract, as the reference does before validating.
    const doc = analyzeText(trace(thread([[0, '[NN_LA_PO]x'], [1, '[NN_LA_PBM]b'], [2, '[NN_LR_PC]c'], [3, 'E'], [4, 'E'], [5, 'E']])));
    assert.deepEqual(codes(doc), []);
  });

  it('nnapi.unmatched-end: an E with nothing open on its thread', () => {
    const doc = analyzeText(trace(thread([[0, '[NN_LR_PP]a'], [1, 'E'], [2, 'E']])));
    const d = only(doc.allDiagnostics(), 'nnapi.unmatched-end');
    assert.equal(d.length, 1);
    assert.equal(d[0].range.start.line, H + 2);
  });

  it('nnapi.unclosed-begin: a scope still open at the end of a run; the run gets no numbers', () => {
    const doc = analyzeText(trace(thread([[0, '[NN_LA_PO]one'], [1, '[NN_LR_PP]open'], [5, 'E'], [6, '[NN_LR_PC]never'], [8, 'E'],
      [10, '[NN_LA_PO]two'], [11, '[NN_LR_PP]p'], [12, 'E'], [13, 'E']])));
    const d = only(doc.allDiagnostics(), 'nnapi.unclosed-begin');
    // Run one: the E at 5 closes 'open', the E at 8 closes 'never': 'one' (line H) is never closed.
    assert.equal(d.length, 1);
    assert.equal(d[0].range.start.line, H);
    assert.equal(doc.analysis.runs[0].aggregate, undefined);
    assert.ok(doc.analysis.runs[1].aggregate);
  });

  it('nnapi.unparsed-mark: a row that mentions NNAPI marks but does not parse', () => {
    const good = row({ t: 0, pid: 100, mark: 'B|100|[NN_LR_PP]x' });
    const bad = '  NeuralNetworks-100  (  100) [001] ...1   100: tracing_mark_write: B|100|[NN_LR_PP]y';
    const doc = analyzeText([...HEADER, good, bad, row({ t: 1, pid: 100, mark: 'E' })].join('\n'));
    const d = only(doc.allDiagnostics(), 'nnapi.unparsed-mark');
    assert.equal(d.length, 1);
    assert.equal(d[0].range.start.line, H + 1);
    assert.equal(d[0].severity, 'error');
  });

  it('nnapi.unparsed-mark: a HIDL mark with no known pattern, and a tag with nothing after it', () => {
    const doc = analyzeText(trace(thread([[0, '[NN_LR_PP]x'], [1, 'HIDL::IFoo::bar'], [2, 'E'], [3, '[NN_LR_PC]'], [4, 'E'], [5, 'E']])));
    const d = only(doc.allDiagnostics(), 'nnapi.unparsed-mark');
    assert.deepEqual(d.map((x) => [x.range.start.line, x.severity]), [[H + 1, 'error'], [H + 3, 'warning']]);
  });

  it('nnapi.unknown-tag: unknown layer or phase codes and malformed tags', () => {
    const text = trace(thread([[0, '[NN_LQ_PP]a'], [1, 'E'], [2, '[NN_LR_PZ]b'], [3, 'E'], [4, '[NN_LR]c'], [5, 'E']]));
    const doc = analyzeText(text);
    const d = only(doc.allDiagnostics(), 'nnapi.unknown-tag');
    assert.equal(d.length, 3);
    assert.match(d[0].message, /layer LQ/);
    assert.match(d[1].message, /phase PZ/);
    assert.match(d[2].message, /not a tag of the form/);
    assert.equal(text.split('\n')[H].slice(d[0].range.start.character, d[0].range.end.character), '[NN_LQ_PP]');
  });

  it('nnapi.no-runtime: no NN_LR mark anywhere', () => {
    const doc = analyzeText(trace(thread([[0, '[NN_LA_PO]app'], [1, 'E']])));
    assert.deepEqual(codes(doc), ['nnapi.no-runtime']);
    assert.equal(only(doc.allDiagnostics(), 'nnapi.no-runtime')[0].severity, 'warning');
  });

  it('old rows without a tgid column and ----- tgids are read', () => {
    const lines = [
      '#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION',
      '  NeuralNetworks-100   [001] ...1   100.000000: tracing_mark_write: B|100|[NN_LR_PP]a',
      '  NeuralNetworks-100   [001] ...1   100.002000: tracing_mark_write: E',
      '  <...>-101  (-----) [001] ...1   100.003000: tracing_mark_write: B|100|[NN_LR_PC]b',
      '  <...>-101  (-----) [001] ...1   100.007000: tracing_mark_write: E|100',
    ];
    const doc = analyzeText(lines.join('\n'));
    assert.deepEqual(codes(doc), []);
    const a = doc.analysis.runs[0].aggregate!;
    assert.ok(Math.abs((a.times.PP as Record<string, number>).LR - 2) < 0.01);
    assert.ok(Math.abs((a.times.PC as Record<string, number>).LR - 4) < 0.01);
  });

  it('untracked threads are ignored, their stray E included', () => {
    const doc = analyzeText(trace(thread([[0, '[NN_LR_PP]a'], [1, 'E']]), thread([[0.5, 'E'], [0.6, 'B|300|draw']], 300)));
    assert.deepEqual(codes(doc), []);
  });
});

describe('nnapi systrace HTML', () => {
  it('reads only the text trace between the header and </script>; diagnostics land on HTML lines', () => {
    const body = trace(thread([[0, '[NN_LR_PP]p'], [1, '[NN_LR_PC]c'], [2, 'E'], [3, 'E']])).trimEnd().split('\n');
    const html = ['<!DOCTYPE html>', '<html><head><script>var s = "[NN_LR_PP] in code before the trace";</script>',
      '<script class="trace-data" type="application/text">', ...body, '  </script>',
      '<script>tracing_mark_write: B|1|[NN_LA_PC]x after the trace</script>', '</html>'];
    const doc = analyzeText(html.join('\n'));
    const d = doc.allDiagnostics();
    assert.deepEqual(d.map((x) => x.code), ['nnapi.phase-nesting']);
    // header at index 3 + 4 lines of HEADER, then p, c
    assert.equal(d[0].range.start.line, 3 + HEADER.length + 1);
    assert.match(html[d[0].range.start.line], /\[NN_LR_PC\]c/);
  });
});

describe('nnapi PU without a phase', () => {
  it('nnapi.phase-nesting: a top-level PU scope has no phase to take', () => {
    const doc = analyzeText(trace(thread([[0, '[NN_LR_PP]x'], [1, 'E'], [2, '[NN_LU_PU]helper'], [3, 'E']])));
    const d = only(doc.allDiagnostics(), 'nnapi.phase-nesting');
    assert.equal(d.length, 1);
    assert.equal(d[0].range.start.line, H + 2);
    assert.match(d[0].message, /PU.*no enclosing scope has a phase/);
  });
});
