import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  activateInstalled, codeOf, describeDiagnostics, diagnosticsWhere, linesMatching, openEditor, serverPids, valuePosition, workspaceUri,
} from './helpers';

/** Deterministic garbage: every byte value but NUL (which makes VS Code refuse a file as binary). */
function garbage(n: number): Buffer {
  const b = Buffer.alloc(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = 1 + ((x >>> 16) % 255);
  }
  return b;
}

describe('Journey 4: the server survives hostile files', () => {
  let pidsBefore: number[] | undefined;

  before(async () => {
    await activateInstalled();
    const good = workspaceUri('llm-layer.trace.jsonl');
    await openEditor(good);
    await diagnosticsWhere(good, 'a clean document', (d) => d.length === 0);
    pidsBefore = serverPids();
    if (pidsBefore) assert.equal(pidsBefore.length, 1, `expected one language server process, found ${pidsBefore.join(', ') || 'none'}`);
  });

  it('a 10 MB line (over the 8 MB line limit) gets one trace.line-too-long and is not parsed', async () => {
    const uri = workspaceUri('hostile-long-line.trace.jsonl');
    const huge = `{"event_type":"CMD_ENQUEUE","t_cycle":1,"cmd_id":1,"cmd_type":"${'MATMUL'.repeat(10 * 1024 * 1024 / 6)}\n`
      + '{"event_type":"CMD_START","t_cycle":2,"cmd_id":1}\n';
    await vscode.workspace.fs.writeFile(uri, Buffer.from(huge));
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.equal(doc.languageId, 'npu-trace');
    assert.ok(doc.lineAt(0).text.length > 10_000_000);
    const ds = await diagnosticsWhere(uri, 'trace.line-too-long on line 1', (d) => d.some((x) => codeOf(x) === 'trace.line-too-long'), { timeoutMs: 60_000 });
    assert.equal(ds.find((d) => codeOf(d) === 'trace.line-too-long')?.range.start.line, 0, describeDiagnostics(ds));
    assert.ok(!ds.some((d) => codeOf(d) === 'trace.invalid-json'), `the long line is skipped, not parsed: ${describeDiagnostics(ds)}`);
  });

  it('binary garbage (invalid UTF-8, control bytes) gets diagnostics, not a crash', async () => {
    const uri = workspaceUri('hostile-garbage.trace.jsonl');
    await vscode.workspace.fs.writeFile(uri, garbage(256 * 1024));
    await vscode.workspace.openTextDocument(uri);
    const ds = await diagnosticsWhere(uri, 'diagnostics for the garbage', (d) => d.length > 0);
    assert.ok(ds.every((d) => ['trace.invalid-json', 'trace.not-object'].includes(codeOf(d)) || /further problems/.test(d.message)), describeDiagnostics(ds));
  });

  it('NUL bytes, lone surrogates and deep nesting in an untitled document get diagnostics', async () => {
    const content = `\u0000\u0001{"event_type":"\uD800"}\n${'['.repeat(10_000)}\n{"event_type":"CMD_START","t_cycle":NaN,"cmd_id":1}\n\uFFFF\u0000\n`;
    const doc = await vscode.workspace.openTextDocument({ language: 'npu-trace', content });
    const ds = await diagnosticsWhere(doc.uri, 'diagnostics on every bad line', (d) => new Set(d.map((x) => x.range.start.line)).size >= 4);
    assert.ok(ds.length >= 4, describeDiagnostics(ds));
    // Discard it, or hot exit would restore it into the next window on this workspace.
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('afterwards the same server process still answers on another file', async () => {
    const uri = workspaceUri('faulty.trace.jsonl');
    const editor = await openEditor(uri);
    await diagnosticsWhere(uri, 'the faulty example diagnostics', (d) => d.length > 10);
    const line = linesMatching(editor.document, /"event_type":"CMD_START"/)[0];
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, valuePosition(editor.document, line, 'cmd_id'));
    assert.ok(hovers.length > 0, 'no hover after the hostile files');
    // A fresh edit is checked too.
    const before = vscode.languages.getDiagnostics(uri).length;
    await editor.edit((b) => b.insert(new vscode.Position(line, 0), '{"event_type":"CMD_STRAT","t_cycle":0}\n'));
    const ds = await diagnosticsWhere(uri, 'a diagnostic for the inserted line', (d) => d.some((x) => x.range.start.line === line && codeOf(x) === 'trace.unknown-event-type'));
    assert.ok(ds.length > before);
    await vscode.commands.executeCommand('undo');
    if (pidsBefore) assert.deepEqual(serverPids(), pidsBefore, 'the language server process was restarted');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of ['hostile-long-line.trace.jsonl', 'hostile-garbage.trace.jsonl']) {
      await vscode.workspace.fs.delete(workspaceUri(name)).then(undefined, () => undefined);
    }
  });
});
