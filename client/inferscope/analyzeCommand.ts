import * as vscode from 'vscode';
import { analyze } from '../../core/inferscope/analyze';
import { eventLines } from '../../core/inferscope/citations';
import { InferscopeDocument } from '../../core/inferscope/document';
import { markdownReport, type Citation } from '../../core/inferscope/reportOutput';
import { SHOW_TIMELINE } from '../timeline/commands';
import { fileName, type TimelinePanel } from '../timeline/panel';

export const ANALYZE_TRACE = 'npuTrace.inferscope.analyzeTrace';
export const REVEAL_EVENTS = 'npuTrace.inferscope.revealEvents';
const SCHEME = 'npu-inferscope-report';

/**
 * "InferScope: Analyze Trace": the `npu-trace analyze` report of the active trace, as a read-only
 * Markdown document beside it (file values escaped by the core; the preview fetches nothing). Its
 * "Events:" lines link to the timeline, which zooms to the events the finding cites.
 */
export function registerInferscopeAnalyze(context: vscode.ExtensionContext): void {
  const reports = new Map<string, { text: string; trace: string; citations: Citation[] }>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  context.subscriptions.push(changed, vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
    onDidChange: changed.event,
    provideTextDocumentContent: (uri) => reports.get(uri.toString())?.text ?? 'Run "InferScope: Analyze Trace" from an InferScope trace to fill this view.',
  }));
  context.subscriptions.push(vscode.languages.registerDocumentLinkProvider({ scheme: SCHEME }, {
    provideDocumentLinks: (doc) => {
      const r = reports.get(doc.uri.toString());
      if (!r) return [];
      return r.citations.filter((c) => c.line < doc.lineCount).map((c) => {
        const line = doc.lineAt(c.line);
        const args = encodeURIComponent(JSON.stringify([r.trace, c.ids]));
        const link = new vscode.DocumentLink(line.range.with(line.range.start.translate(0, line.firstNonWhitespaceCharacterIndex)), vscode.Uri.parse(`command:${REVEAL_EVENTS}?${args}`));
        link.tooltip = 'Show these events in the timeline';
        return link;
      });
    },
  }));
  context.subscriptions.push(vscode.commands.registerCommand(REVEAL_EVENTS, async (trace?: unknown, ids?: unknown) => {
    if (typeof trace !== 'string' || !Array.isArray(ids) || !ids.every((x) => typeof x === 'string')) return;
    const uri = vscode.Uri.parse(trace, true);
    const doc = await vscode.workspace.openTextDocument(uri);
    const lines = eventLines(InferscopeDocument.parse(doc.getText(), uri.path), ids as string[]);
    if (!lines.length) {
      void vscode.window.showWarningMessage('InferScope: the events this finding cites are no longer in the trace. Run "InferScope: Analyze Trace" again.');
      return;
    }
    const panel = await vscode.commands.executeCommand<TimelinePanel | undefined>(SHOW_TIMELINE, uri);
    panel?.revealLines(lines);
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
    reports.set(target.toString(), { ...markdownReport(analyze(model), name), trace: doc.uri.toString() });
    changed.fire(target);
    const report = await vscode.workspace.openTextDocument(target);
    await vscode.window.showTextDocument(report, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
  }));
}
