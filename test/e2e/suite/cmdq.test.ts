// Extension-host journey for CMDQ files, in the real VS Code of the e2e harness (branch e2e):
// open the §4.4 golden CMDQ, break a dependency by typing, see the diagnostic, apply the quick fix.
// Self-contained (only the vscode API and mocha's globals) so it builds before the harness's
// helpers.ts is merged; it follows the same rules: every wait is on an event, bounded by WAIT_MS.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';

const WAIT_MS = 30_000;
const GOLDEN = 'golden.cmdq.json';

function workspaceUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the end-to-end suite needs a workspace folder (a copy of examples/)');
  return vscode.Uri.joinPath(folder.uri, name);
}

const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code));

/** Resolves with the diagnostics of `uri` once `pred` holds, checking now and on every change event. */
function diagnosticsWhere(uri: vscode.Uri, what: string, pred: (ds: vscode.Diagnostic[]) => boolean, after?: Promise<void>): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    let ready = !after;
    const check = () => {
      const ds = vscode.languages.getDiagnostics(uri);
      if (ready && pred(ds)) {
        done();
        resolve(ds);
      }
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => { if (e.uris.some((u) => u.toString() === uri.toString())) check(); });
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out waiting for ${what}; now: ${vscode.languages.getDiagnostics(uri).map((d) => `${d.range.start.line} ${codeOf(d)}`).join(', ') || '(none)'}`));
    }, WAIT_MS);
    function done() {
      clearTimeout(timer);
      sub.dispose();
    }
    void after?.then(() => { ready = true; check(); });
    check();
  });
}

function nextDiagnosticsEvent(uri: vscode.Uri): Promise<void> {
  return new Promise((resolve) => {
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) {
        sub.dispose();
        resolve();
      }
    });
  });
}

describe('CMDQ: validation while hand-editing', () => {
  it('the golden CMDQ of §4.4 gets the cmdq language and no diagnostics', async () => {
    const uri = workspaceUri(GOLDEN);
    const published = nextDiagnosticsEvent(uri);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    assert.equal(editor.document.languageId, 'cmdq');
    const ds = await diagnosticsWhere(uri, 'the first publication', () => true, published);
    assert.deepEqual(ds.map(codeOf), []);
  });

  it('typing a self-dependency shows cmdq.self-dep on the typed number; the quick fix removes it in one undoable edit', async () => {
    const uri = workspaceUri(GOLDEN);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
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
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(editor.document.getText(), original);
    await diagnosticsWhere(uri, 'no diagnostics after the fix', (d) => d.length === 0);

    // The fix was one edit: one undo brings the self-dependency back.
    await vscode.commands.executeCommand('undo');
    assert.ok(editor.document.lineAt(line).text.includes('"deps_before": [2, 3]'));
    await diagnosticsWhere(uri, 'cmdq.self-dep again', (d) => d.some((x) => codeOf(x) === 'cmdq.self-dep'));
    // VS Code splits typed text into undo groups at word boundaries (", 3" is "," then " 3"), so
    // undoing the typing may take more than one step.
    for (let i = 0; i < 3 && editor.document.getText() !== original; i++) await vscode.commands.executeCommand('undo');
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
