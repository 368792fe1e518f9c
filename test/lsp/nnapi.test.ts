import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import type { CodeAction, DocumentSymbol, FoldingRange, Hover, Location, MarkupContent, TextEdit } from 'vscode-languageserver-protocol';
import { NNAPI_SUMMARY_METHOD, type NnapiSummaryResult } from '../../protocol/nnapi';
import { serverPerSuite } from './lspClient';

const fixture = (n: string) => readFileSync(resolve(__dirname, '../fixtures/nnapi', n), 'utf8');
const DRIVER = fixture('driver.atrace');
const NESTING = fixture('nesting.systrace');
const LANG = 'nnapi-systrace';

describe('nnapi-systrace language server over stdio', () => {
  const c = serverPerSuite();

  it('publishes no diagnostics for an accepted trace', async () => {
    assert.deepEqual(await c.open('file:///driver.atrace', LANG, DRIVER), []);
  });

  it('publishes every nesting violation on the tag, related to the parent, with a [SUB] quick fix that clears it', async () => {
    const uri = 'file:///nesting.systrace';
    const diags = await c.open(uri, LANG, NESTING);
    assert.deepEqual(diags.map((d) => [d.code, d.range.start.line]), [['nnapi.phase-nesting', 6], ['nnapi.layer-nesting', 10]]);
    const lines = NESTING.split('\n');
    const layer = diags[1];
    assert.equal(lines[10].slice(layer.range.start.character, layer.range.end.character), '[NN_LA_PC]');
    assert.equal(layer.relatedInformation?.[0].location.range.start.line, 9);
    const actions = await c.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri }, range: layer.range, context: { diagnostics: [layer] },
    });
    const fix = actions.find((a) => a.isPreferred)!;
    assert.match(fix.title, /\[SUB\]/);
    const edit = fix.edit!.changes![uri][0] as TextEdit;
    assert.deepEqual(edit.range.start, layer.range.start);
    assert.equal(edit.newText, '[SUB]');
    const after = await c.change(uri, [{ range: edit.range, text: edit.newText }]);
    assert.deepEqual(after.map((d) => d.code), ['nnapi.phase-nesting']);
    // The phase violation inside the same layer also offers [SW].
    const phase = after[0];
    const phaseActions = await c.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: phase.range, context: { diagnostics: [phase] } });
    assert.deepEqual(phaseActions.map((a) => a.edit!.changes![uri][0].newText).sort(), ['[SUB]', '[SW]']);
  });

  it('re-checks incrementally edited lines', async () => {
    const uri = 'file:///edit.atrace';
    await c.open(uri, LANG, DRIVER);
    const line = DRIVER.split('\n')[12];
    const at = line.indexOf('100.019000');
    // Break the timestamp of an E row: it no longer parses, so the scope it closed stays open.
    let diags = await c.change(uri, [{ range: { start: { line: 12, character: at }, end: { line: 12, character: at + 10 } }, text: 'oops' }]);
    assert.ok(diags.some((d) => d.code === 'nnapi.unparsed-mark' && d.range.start.line === 12));
    diags = await c.change(uri, [{ range: { start: { line: 12, character: at }, end: { line: 12, character: at + 4 } }, text: '100.019000' }]);
    assert.deepEqual(diags, []);
  });

  it('goes from an E to its B and back', async () => {
    const uri = 'file:///driver.atrace';
    const def = await c.request<Location>('textDocument/definition', c.at(uri, { line: 10, character: 5 }));
    assert.equal(def.range.start.line, 5);
    const refs = await c.request<Location[]>('textDocument/references', { ...c.at(uri, { line: 5, character: 5 }), context: { includeDeclaration: true } });
    assert.deepEqual(refs.map((r) => r.range.start.line), [5, 10]);
  });

  it('hovers a B row with duration, self time, layer/phase after the CPU mapping and the call path', async () => {
    const uri = 'file:///driver.atrace';
    const h = await c.request<Hover>('textDocument/hover', c.at(uri, { line: 6, character: 3 }));
    const md = (h.contents as MarkupContent).value;
    assert.match(md, /cpuCompile/);
    assert.match(md, /Duration \| 4\.000 ms/);
    assert.match(md, /Layer \/ phase \| LC \(CPU\) \/ PC \(Compilation\)/);
    assert.match(md, /mobilenet[\s\S]*compile[\s\S]*cpuCompile/);
    const outer = (await c.request<Hover>('textDocument/hover', c.at(uri, { line: 5, character: 3 }))).contents as MarkupContent;
    assert.match(outer.value, /Duration \| 9\.000 ms/);
    assert.match(outer.value, /Self time \| 9\.000 ms/);
  });

  it('outlines the call tree per thread and folds each B..E', async () => {
    const uri = 'file:///driver.atrace';
    const syms = await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(syms.map((s) => s.name), ['thread 100 (NeuralNetworks)', 'thread 202 (HwBinder:200_2)', 'thread 201 (HwBinder:200_1)']);
    const app = syms[0].children!;
    assert.deepEqual(app.map((s) => s.name), ['mobilenet']);
    assert.deepEqual(app[0].children!.map((s) => s.name), ['compile', 'ANeuralNetworksExecution_startCompute', 'ANeuralNetworksEvent_wait']);
    assert.deepEqual(app[0].children![0].children!.map((s) => s.name), ['cpuCompile']);
    const folds = await c.request<FoldingRange[]>('textDocument/foldingRange', { textDocument: { uri } });
    assert.ok(folds.some((f) => f.startLine === 4 && f.endLine === 21));
    assert.ok(folds.some((f) => f.startLine === 14 && f.endLine === 19));
  });

  it('answers the timing summary request with every view of every run', async () => {
    const r = await c.request<NnapiSummaryResult>(NNAPI_SUMMARY_METHOD, { uri: 'file:///driver.atrace' });
    assert.ok(r.ok);
    assert.equal(r.runs.length, 1);
    const run = r.runs[0];
    assert.equal(run.startingMark, 'B|100|[NN_LA_PO]mobilenet');
    assert.equal(run.views.length, 4);
    // Self-times: LR PE = 12 − 6 (driver) = 6; total times: 12. LA cells are missing → null.
    assert.ok(Math.abs(run.views[0].values.LR_PE! - 6) < 0.01);
    assert.ok(Math.abs(run.views[1].values.LR_PE! - 12) < 0.01);
    assert.equal(run.views[0].values.LA_PE, null);
    const missing = await c.request<NnapiSummaryResult>(NNAPI_SUMMARY_METHOD, { uri: 'file:///not-open.systrace' });
    assert.equal(missing.ok, false);
  });
});
