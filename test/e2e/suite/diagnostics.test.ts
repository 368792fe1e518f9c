import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { faultyExample } from '../../gen/exampleTraces';
import {
  activateInstalled, codeOf, describeDiagnostics, diagnosticsWhere, linesMatching, nextDiagnosticsEvent, openEditor, workspaceUri,
} from './helpers';

const GOOD = 'llm-layer.trace.jsonl';
const FAULTY = 'faulty.trace.jsonl';

describe('Journey 1: opening the examples', () => {
  before(async () => {
    await activateInstalled();
  });

  it('the faulty example gets the npu-trace language and exactly its planted diagnostics', async () => {
    const uri = workspaceUri(FAULTY);
    const editor = await openEditor(uri);
    assert.equal(editor.document.languageId, 'npu-trace');
    const expected = faultyExample().mistakes.map((m) => `${m.line} ${m.code} ${m.severity}`).sort();
    const ds = await diagnosticsWhere(uri, `${expected.length} diagnostics`, (d) => d.length === expected.length);
    const severity = (d: vscode.Diagnostic) => (d.severity === vscode.DiagnosticSeverity.Warning ? 'warning' : d.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'other');
    assert.deepEqual(ds.map((d) => `${d.range.start.line} ${codeOf(d)} ${severity(d)}`).sort(), expected);
    assert.ok(ds.every((d) => d.source === 'npu-trace'), 'diagnostics come from the npu-trace server');
    // Located on the offending token, not the whole line.
    const unknown = ds.find((d) => codeOf(d) === 'trace.unknown-cmd');
    assert.ok(unknown);
    assert.equal(editor.document.getText(unknown.range), '77');
    assert.ok(new Set(ds.map(codeOf)).size >= 10);
  });

  it('the good example gets the npu-trace language and no diagnostics once the server has checked it', async () => {
    const uri = workspaceUri(GOOD);
    // The server publishes (an empty list) for every document it checks: wait for that publication.
    const published = nextDiagnosticsEvent(uri);
    const editor = await openEditor(uri);
    assert.equal(editor.document.languageId, 'npu-trace');
    assert.ok(editor.document.lineCount > 2000);
    const ds = await diagnosticsWhere(uri, 'the first publication', () => true, { sawEvent: published });
    assert.equal(ds.length, 0, `unexpected diagnostics: ${describeDiagnostics(ds)}`);
  });
});

describe('Journey 2: typing a mistake, then undoing it', () => {
  it('a typo in an enum value shows a diagnostic on that line; undo clears it', async () => {
    const uri = workspaceUri(GOOD);
    const editor = await openEditor(uri);
    await diagnosticsWhere(uri, 'a clean document', (d) => d.length === 0);
    const line = linesMatching(editor.document, /"access_type":"READ"/)[5];
    const text = editor.document.lineAt(line).text;
    const col = text.indexOf('"access_type":"READ"') + '"access_type":"RE'.length;
    // Types "X" inside READ through the editor's own `type` command, as a keystroke would.
    editor.selection = new vscode.Selection(line, col, line, col);
    await vscode.commands.executeCommand('type', { text: 'X' });
    assert.equal(editor.document.lineAt(line).text.includes('"access_type":"REXAD"'), true);
    const ds = await diagnosticsWhere(uri, 'trace.invalid-value on the edited line', (d) => d.some((x) => x.range.start.line === line));
    assert.deepEqual(ds.map((d) => `${d.range.start.line} ${codeOf(d)}`), [`${line} trace.invalid-value`]);
    assert.equal(editor.document.getText(ds[0].range), '"REXAD"');
    assert.match(ds[0].message, /READ, WRITE/);

    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.lineAt(line).text, text);
    await diagnosticsWhere(uri, 'no diagnostics after undo', (d) => d.length === 0);
    assert.equal(editor.document.isDirty, false);
  });

  it('breaking a line into invalid JSON reports trace.invalid-json on it, and the pairs it broke', async () => {
    const uri = workspaceUri(GOOD);
    const editor = await openEditor(uri);
    const line = linesMatching(editor.document, /"event_type":"CMD_END"/)[0];
    const text = editor.document.lineAt(line).text;
    await editor.edit((b) => b.delete(new vscode.Range(line, text.length - 1, line, text.length)));
    const ds = await diagnosticsWhere(uri, 'trace.invalid-json', (d) => d.some((x) => codeOf(x) === 'trace.invalid-json'));
    assert.equal(ds.find((d) => codeOf(d) === 'trace.invalid-json')?.range.start.line, line);
    // The CMD_END is gone, so its CMD_START is now unmatched.
    const start = linesMatching(editor.document, /"event_type":"CMD_START","t_cycle":\d+,"t_ns":[\d.]+,"cmd_id":1,/)[0];
    assert.ok(ds.some((d) => codeOf(d) === 'trace.unmatched-start' && d.range.start.line === start), describeDiagnostics(ds));
    await vscode.commands.executeCommand('undo');
    await diagnosticsWhere(uri, 'no diagnostics after undo', (d) => d.length === 0);
  });
});
