import * as vscode from 'vscode';
import { analyze } from '../../core/inferscope/analyze';
import { eventLines } from '../../core/inferscope/citations';
import { InferscopeDocument } from '../../core/inferscope/document';
import { SHOW_TIMELINE } from '../timeline/commands';
import type { TimelinePanel } from '../timeline/panel';
import { REVEAL_EVENTS, ReportPanels } from './reportPanel';

export const ANALYZE_TRACE = 'npuTrace.inferscope.analyzeTrace';
export const COPY_REPORT_MARKDOWN = 'npuTrace.inferscope.copyReportMarkdown';
export { REVEAL_EVENTS };

/**
 * "InferScope: Analyze Trace": the `npu-trace analyze` report of the active trace, rendered beside
 * it (`reportPanel.ts`). Its "Events:" lines link to the timeline, which zooms to the events the
 * finding cites; "Copy Report as Markdown" gives the same report as text for an issue or a PR.
 */
export function registerInferscopeAnalyze(context: vscode.ExtensionContext): void {
  const reports = new ReportPanels();
  context.subscriptions.push(reports);
  context.subscriptions.push(vscode.commands.registerCommand(REVEAL_EVENTS, async (trace?: unknown, ids?: unknown) => {
    if (typeof trace !== 'string' || !Array.isArray(ids) || !ids.every((x) => typeof x === 'string')) return;
    const uri = vscode.Uri.parse(trace, true);
    const doc = await vscode.workspace.openTextDocument(uri);
    const lines = eventLines(InferscopeDocument.parse(doc.getText(), uri.path), ids as string[]);
    if (!lines.length) {
      void vscode.window.showWarningMessage('InferScope: the events this finding cites are no longer in the trace. Run "InferScope: Analyze Trace" again.');
      return;
    }
    // Clicked in the report: the timeline opens in the report's group (a tab beside it), so the
    // trace keeps its column for the timeline's click → line and the window stays two columns.
    const column = reports.columnOf(uri);
    const panel = await vscode.commands.executeCommand<TimelinePanel | undefined>(SHOW_TIMELINE, uri, column);
    panel?.revealLines(lines);
  }));
  context.subscriptions.push(vscode.commands.registerCommand(COPY_REPORT_MARKDOWN, async (trace?: unknown) => {
    const markdown = reports.markdown(typeof trace === 'string' ? trace : undefined);
    if (markdown === undefined) {
      void vscode.window.showWarningMessage('InferScope: no report is open. Run "InferScope: Analyze Trace" on a trace first.');
      return;
    }
    await vscode.env.clipboard.writeText(markdown);
    void vscode.window.setStatusBarMessage('InferScope: report copied as Markdown', 3000);
  }));
  context.subscriptions.push(vscode.commands.registerCommand(ANALYZE_TRACE, async (arg?: vscode.Uri) => {
    const doc = arg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(arg) : vscode.window.activeTextEditor?.document;
    const model = doc?.languageId === 'inferscope' ? InferscopeDocument.parse(doc.getText(), doc.uri.path) : undefined;
    if (!doc || !model || model.kind !== 'trace') {
      void vscode.window.showWarningMessage('InferScope: Analyze Trace works on an InferScope trace (language InferScope, with "format_version" and "events").');
      return;
    }
    reports.show(doc.uri, analyze(model));
  }));
}
