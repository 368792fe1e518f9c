// Extension-host journey for NNAPI systraces in the real VS Code of the e2e harness: the examples
// get the language, the nesting violations are published, the [SUB] quick fix clears one, and
// "NNAPI: Show Timing Summary" opens the summary beside the trace. Every wait is on an event.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { codeOf, describeDiagnostics, diagnosticsWhere, workspaceUri } from './helpers';

const CLEAN = 'nnapi-mobilenet.systrace';
const NESTING = 'nnapi-nesting.systrace';

async function open(name: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(workspaceUri(name));
  return vscode.window.showTextDocument(doc, { preview: false });
}

describe('NNAPI systraces', () => {
  it('the examples get the nnapi-systrace language; the nesting one exactly its two violations', async () => {
    const clean = await open(CLEAN);
    assert.equal(clean.document.languageId, 'nnapi-systrace');
    const nesting = await open(NESTING);
    assert.equal(nesting.document.languageId, 'nnapi-systrace');
    const ds = await diagnosticsWhere(nesting.document.uri, 'two nesting violations', (d) => d.length === 2);
    assert.deepEqual(ds.map((d) => [codeOf(d), d.range.start.line]).sort(), [['nnapi.layer-nesting', 10], ['nnapi.phase-nesting', 6]], describeDiagnostics(ds));
    assert.deepEqual(vscode.languages.getDiagnostics(clean.document.uri), []);
  });

  it('the [SUB] quick fix clears the layer violation', async () => {
    const editor = await open(NESTING);
    const uri = editor.document.uri;
    const [layer] = (await diagnosticsWhere(uri, 'the layer violation', (d) => d.some((x) => codeOf(x) === 'nnapi.layer-nesting')))
      .filter((x) => codeOf(x) === 'nnapi.layer-nesting');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, layer.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.title.includes('[SUB]'));
    assert.ok(fix?.edit, `a [SUB] quick fix among: ${actions.map((a) => a.title).join(' | ')}`);
    const after = diagnosticsWhere(uri, 'only the phase violation left', (d) => d.length === 1 && codeOf(d[0]) === 'nnapi.phase-nesting');
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    await after;
    assert.match(editor.document.lineAt(10).text, /\[SUB\]\[NN_LA_PC\]a$/);
  });

  it('NNAPI: Show Timing Summary opens the per-run table beside the trace', async () => {
    await open(CLEAN);
    await diagnosticsWhere(workspaceUri(CLEAN), 'the clean example checked', (d) => d.length === 0);
    await vscode.commands.executeCommand('npuTrace.nnapi.showTimingSummary');
    const summary = vscode.window.visibleTextEditors.map((e) => e.document).find((d) => d.uri.scheme === 'npu-nnapi-summary');
    assert.ok(summary, 'a summary document is visible');
    const text = summary.getText();
    assert.match(text, /Run 1: B\|100\|\[NN_LA_PO\]mobilenet/);
    for (const view of ['[self-times, all phases]', '[total times, all phases]', '[self-times, per execution]', '[total times, per execution]']) assert.ok(text.includes(view), view);
    const runtime = text.split('\n').find((l) => l.startsWith('Runtime'))!;
    assert.deepEqual(runtime.trim().split(/\s+/), ['Runtime', '-', '-', '7.00', '-', '6.00', '-', '6.00', '-', '13.00']);
  });
});
