// Extension-host journey for CMDQ files in the real VS Code: open the §4.4 golden CMDQ, break a
// dependency by typing, see the diagnostic, apply the quick fix; and a plain .json detected as CMDQ.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { activateInstalled, codeOf, describeDiagnostics, diagnosticsWhere, nextDiagnosticsEvent, openEditor, WAIT_MS, workspaceUri } from './helpers';

const GOLDEN = 'golden.cmdq.json';

describe('CMDQ: validation while hand-editing', () => {
  before(async () => {
    await activateInstalled();
  });

  it('the golden CMDQ of §4.4 gets the cmdq language and no diagnostics', async () => {
    const uri = workspaceUri(GOLDEN);
    const published = nextDiagnosticsEvent(uri);
    const editor = await openEditor(uri);
    assert.equal(editor.document.languageId, 'cmdq');
    const ds = await diagnosticsWhere(uri, 'the first publication', () => true, { sawEvent: published });
    assert.equal(ds.length, 0, `unexpected diagnostics: ${describeDiagnostics(ds)}`);
  });

  it('typing a self-dependency shows cmdq.self-dep on the typed number; the quick fix removes it in one undoable edit', async () => {
    const uri = workspaceUri(GOLDEN);
    const editor = await openEditor(uri);
    const original = editor.document.getText();
    const line = [...Array(editor.document.lineCount).keys()].find((i) => editor.document.lineAt(i).text.includes('"VE_LAYERNORM_TILE"'))!;
    const text = editor.document.lineAt(line).text;
    const col = text.indexOf('"deps_before": [2]') + '"deps_before": [2'.length;
    editor.selection = new vscode.Selection(line, col, line, col);
    await vscode.commands.executeCommand('type', { text: ', 3' });
    assert.ok(editor.document.lineAt(line).text.includes('"deps_before": [2, 3]'));

    const ds = await diagnosticsWhere(uri, 'cmdq.self-dep', (d) => d.some((x) => codeOf(x) === 'cmdq.self-dep'));
    const self = ds.find((d) => codeOf(d) === 'cmdq.self-dep')!;
    assert.equal(self.range.start.line, line);
    assert.equal(editor.document.getText(self.range), '3');
    assert.match(self.message, /depends on itself/);

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, self.range);
    const fix = actions.find((a) => a.title === 'Remove dependency 3');
    assert.ok(fix?.edit, `quick fixes offered: ${actions.map((a) => a.title).join(', ')}`);
    const before = editor.document.lineAt(line).text;
    const planned = fix.edit.entries().flatMap(([, es]) => es.map((e) => `${e.range.start.line}:${e.range.start.character}-${e.range.end.line}:${e.range.end.character} ${JSON.stringify(e.newText)}`));
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(editor.document.getText(), original, `edits ${planned.join(', ')} on ${JSON.stringify(before)} (v${editor.document.version})`);
    await diagnosticsWhere(uri, 'no diagnostics after the fix', (d) => d.length === 0);

    // The fix was one edit: one undo brings the self-dependency back.
    await vscode.commands.executeCommand('undo');
    assert.ok(editor.document.lineAt(line).text.includes('"deps_before": [2, 3]'));
    await diagnosticsWhere(uri, 'cmdq.self-dep again', (d) => d.some((x) => codeOf(x) === 'cmdq.self-dep'));
    // Typing ', 3' may have left more than one undo stop (VS Code groups typed words); undo them all.
    for (let n = 0; n < 5 && editor.document.getText() !== original; n++) await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), original);
    await diagnosticsWhere(uri, 'clean after undoing the typing', (d) => d.length === 0);
  });

  it('a plain .json with a top-level cmdq array is switched to the cmdq language', async () => {
    const uri = workspaceUri('schedule.json');
    writeFileSync(uri.fsPath, '{\n  "cmdq": [\n    { "opcode": "END", "id": 0, "layer_id": null, "deps_before": [] }\n  ]\n}\n');
    const switched = new Promise<vscode.TextDocument>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('schedule.json never became cmdq')), WAIT_MS);
      const sub = vscode.workspace.onDidOpenTextDocument((d) => {
        if (d.uri.toString() === uri.toString() && d.languageId === 'cmdq') {
          clearTimeout(timer);
          sub.dispose();
          resolve(d);
        }
      });
    });
    const doc = await vscode.workspace.openTextDocument(uri);
    const final = doc.languageId === 'cmdq' ? doc : await switched;
    assert.equal(final.languageId, 'cmdq');
  });
});
