// Severity overrides, the cap, and settings that arrive as arbitrary JSON.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { range, type Diagnostic } from '../../../core/common/diagnostic';
import { defaultDiagnosticSettings, finalizeDiagnostics, normalizeSettings } from '../../../core/common/settings';

const d = (line: number, ch: number, code: string, severity: Diagnostic['severity'] = 'error'): Diagnostic => ({ range: range(line, ch, ch + 1), severity, code, message: `${code} at ${line}` });

describe('finalizeDiagnostics', () => {
  const diags = [d(3, 0, 'trace.a'), d(1, 5, 'trace.b', 'warning'), d(1, 2, 'trace.c'), d(0, 0, 'trace.a')];

  it('sorts by position and keeps everything by default', () => {
    assert.deepEqual(finalizeDiagnostics(diags, defaultDiagnosticSettings).map((x) => `${x.range.start.line}:${x.range.start.character}`), ['0:0', '1:2', '1:5', '3:0']);
  });

  it('applies per-code severity overrides, and off removes the code', () => {
    const out = finalizeDiagnostics(diags, { severity: { 'trace.a': 'off', 'trace.b': 'error', 'trace.c': 'hint' }, maxProblems: 1000 });
    assert.deepEqual(out.map((x) => `${x.code}:${x.severity}`), ['trace.c:hint', 'trace.b:error']);
    assert.equal(diags[1].severity, 'warning', 'the input is not mutated');
  });

  it('caps the list with one summary on line 1, counting what was cut', () => {
    const many = Array.from({ length: 7 }, (_, i) => d(i, 0, 'trace.x'));
    const out = finalizeDiagnostics(many, { severity: {}, maxProblems: 5 });
    assert.equal(out.length, 6);
    assert.deepEqual(out[0], { range: range(0, 0, 0), severity: 'information', code: 'too-many-problems',
      message: '2 further problems not shown (limit 5, setting npuTrace.diagnostics.maxProblems)' });
    assert.deepEqual(out.slice(1).map((x) => x.range.start.line), [0, 1, 2, 3, 4]);
    assert.equal(finalizeDiagnostics(many.slice(0, 5), { severity: {}, maxProblems: 5 }).length, 5, 'exactly at the limit: no summary');
  });

  it('codes switched off do not count against the cap', () => {
    const many = [...Array.from({ length: 10 }, (_, i) => d(i, 0, 'trace.noise')), d(20, 0, 'trace.real')];
    assert.deepEqual(finalizeDiagnostics(many, { severity: { 'trace.noise': 'off' }, maxProblems: 1 }).map((x) => x.code), ['trace.real']);
  });
});

describe('normalizeSettings', () => {
  it('keeps valid values', () => {
    assert.deepEqual(normalizeSettings({ severity: { 'trace.time-backwards': 'error', 'trace.reported-warning': 'off' }, maxProblems: 50 }),
      { severity: { 'trace.time-backwards': 'error', 'trace.reported-warning': 'off' }, maxProblems: 50 });
  });
  it('drops what is not a severity and falls back to 1000 problems', () => {
    for (const raw of [undefined, null, 42, 'x', [], { severity: 'error' }, { maxProblems: 0 }, { maxProblems: -3 }, { maxProblems: 2.5 }, { maxProblems: '10' }]) {
      assert.deepEqual(normalizeSettings(raw), { severity: {}, maxProblems: 1000 }, JSON.stringify(raw));
    }
    assert.deepEqual(normalizeSettings({ severity: { a: 'fatal', b: 3, c: null, d: 'warning' } }).severity, { d: 'warning' });
    assert.equal(normalizeSettings({ maxLineBytes: 4096 }).maxLineBytes, 4096);
    for (const bad of [0, -1, 1.5, '8', null]) assert.equal(normalizeSettings({ maxLineBytes: bad }).maxLineBytes, undefined, String(bad));
  });
});
