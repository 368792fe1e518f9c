import * as vscode from 'vscode';
import { analyze } from '../../core/inferscope/analyze';
import { InferscopeDocument } from '../../core/inferscope/document';
import { toMarkdown } from '../../core/inferscope/reportOutput';
import { fileName } from '../timeline/panel';

export const ANALYZE_TRACE = 'npuTrace.inferscope.analyzeTrace';
const SCHEME = 'npu-inferscope-report';

/**
 * "InferScope: Analyze Trace": the `npu-trace analyze` report of the active trace, as a read-only
 * Markdown document beside it (file values escaped by the core; the preview fetches nothing).
 */
export function registerInferscopeAnalyze(context: vscode.ExtensionContext): void {
  const contents = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  context.subscriptions.push(changed, vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
    onDidChange: changed.event,
    provideTextDocumentContent: (uri) => contents.get(uri.toString()) ?? 'Run "InferScope: Analyze Trace" from an InferScope trace to fill this view.',
  }));
  context.subscriptions.push(vscode.commands.registerCommand(ANALYZE_TRACE, async (arg?: vscode.Uri) => {
    const doc = arg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(arg) : vscode.window.activeTextEditor?.document;
    const model = doc?.languageId === 'inferscope' ? InferscopeDocument.parse(doc.getText(), doc.uri.path) : undefined;
    if (!doc || !model || model.kind !== 'trace') {
      void vscode.window.showWarningMessage('InferScope: Analyze Trace works on an InferScope trace (language InferScope, with "format_version" and "events").');
      return;
    }
    const name = fileName(doc.uri);
    const target = vscode.Uri.from({ scheme: SCHEME, path: `/${name} - report.md`, query: doc.uri.toString() });
    contents.set(target.toString(), toMarkdown(analyze(model), name));
    changed.fire(target);
    const report = await vscode.workspace.openTextDocument(target);
    await vscode.window.showTextDocument(report, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
  }));
}
