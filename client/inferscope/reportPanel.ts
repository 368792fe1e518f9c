import * as vscode from 'vscode';
import type { AnalysisResult } from '../../core/inferscope/analysisResult';
import { markdownReport, toHtml } from '../../core/inferscope/reportOutput';
import { fileName } from '../timeline/documentRequest';

export const REVEAL_EVENTS = 'npuTrace.inferscope.revealEvents';
export const REPORT_VIEW_TYPE = 'npuTrace.inferscopeReport';

/** An id longer than this is left out of a link (a hostile trace must not make a megabyte URI). */
const MAX_LINKED_ID = 1024;

interface Open {
  panel: vscode.WebviewPanel;
  markdown: string;
}

/**
 * The report views, one per trace: the core's self-contained HTML report with no script at all.
 * Its Events lines are `command:` links, and the webview may run that one command only.
 */
export class ReportPanels implements vscode.Disposable {
  private readonly open = new Map<string, Open>();

  show(trace: vscode.Uri, result: AnalysisResult): void {
    const key = trace.toString();
    const name = fileName(trace);
    let o = this.open.get(key);
    if (!o) {
      const panel = vscode.window.createWebviewPanel(REPORT_VIEW_TYPE, `Report: ${name}`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
        { enableScripts: false, enableCommandUris: [REVEAL_EVENTS], localResourceRoots: [] });
      o = { panel, markdown: '' };
      this.open.set(key, o);
      panel.onDidDispose(() => this.open.delete(key));
    } else o.panel.reveal(undefined, false);
    const link = (ids: readonly string[]) => {
      const linked = ids.filter((id) => id.length <= MAX_LINKED_ID);
      return linked.length ? `command:${REVEAL_EVENTS}?${encodeURIComponent(JSON.stringify([key, linked]))}` : undefined;
    };
    o.panel.webview.html = toHtml(result, name, link);
    o.markdown = markdownReport(result, name).text;
  }

  /** The column of the trace's report, if it is open. */
  columnOf(trace: vscode.Uri): vscode.ViewColumn | undefined {
    return this.open.get(trace.toString())?.panel.viewColumn;
  }

  /** The Markdown of the report of `trace`, or of the report in front when none is named. */
  markdown(trace?: string): string | undefined {
    if (trace !== undefined) return this.open.get(trace)?.markdown;
    for (const o of this.open.values()) if (o.panel.active) return o.markdown;
    return this.open.size === 1 ? [...this.open.values()][0].markdown : undefined;
  }

  dispose(): void {
    for (const o of this.open.values()) o.panel.dispose();
    this.open.clear();
  }
}
