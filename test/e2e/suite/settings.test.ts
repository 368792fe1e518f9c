import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { faultyExample } from '../../gen/exampleTraces';
import { activateInstalled, codeOf, describeDiagnostics, diagnosticsWhere, openEditor, workspaceUri } from './helpers';

/** Settings travel from VS Code through the client to the server, which re-checks open files. */
describe('Journey 5: diagnostic settings', () => {
  const uri = workspaceUri('faulty.trace.jsonl');
  const total = faultyExample().mistakes.length;
  const config = () => vscode.workspace.getConfiguration('npuTrace.diagnostics');

  before(async () => {
    await activateInstalled();
    await openEditor(uri);
    await diagnosticsWhere(uri, `${total} diagnostics`, (d) => d.length === total);
  });

  after(async () => {
    await config().update('severity', undefined, vscode.ConfigurationTarget.Global);
    await config().update('maxProblems', undefined, vscode.ConfigurationTarget.Global);
    await diagnosticsWhere(uri, `${total} diagnostics again`, (d) => d.length === total);
  });

  it('npuTrace.diagnostics.severity turns a code off and changes the severity of another', async () => {
    const backwards = faultyExample().mistakes.filter((m) => m.code === 'trace.time-backwards').length;
    await config().update('severity', { 'trace.time-backwards': 'off', 'trace.unknown-cmd': 'hint' }, vscode.ConfigurationTarget.Global);
    const ds = await diagnosticsWhere(uri, 'time-backwards hidden and unknown-cmd a hint',
      (d) => d.length === total - backwards && d.some((x) => codeOf(x) === 'trace.unknown-cmd' && x.severity === vscode.DiagnosticSeverity.Hint));
    assert.ok(!ds.some((d) => codeOf(d) === 'trace.time-backwards'), describeDiagnostics(ds));
  });

  it('npuTrace.diagnostics.maxProblems caps the list with one summary on line 1', async () => {
    await config().update('severity', undefined, vscode.ConfigurationTarget.Global);
    await config().update('maxProblems', 5, vscode.ConfigurationTarget.Global);
    const ds = await diagnosticsWhere(uri, '5 diagnostics and a summary', (d) => d.length === 6);
    const summary = ds.find((d) => codeOf(d) === 'too-many-problems');
    assert.ok(summary, describeDiagnostics(ds));
    assert.equal(summary.range.start.line, 0);
    assert.match(summary.message, new RegExp(`${total - 5} further problems`));
  });
});
