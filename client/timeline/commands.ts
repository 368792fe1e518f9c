import * as vscode from 'vscode';
import { fileName, TimelinePanel, VIEW_TYPE } from './panel';

export const SHOW_TIMELINE = 'npuTrace.showTimeline';

/** What the page saves with setState; the serializer needs the file to reopen the panel after a reload. */
interface SavedState {
  uri?: unknown;
}

/**
 * "NPU Trace: Show Timeline": one panel per file, beside the editor, restored after a window
 * reload by the panel serializer.
 */
export function registerTimeline(context: vscode.ExtensionContext): void {
  const panels = new Map<string, TimelinePanel>();
  const log = vscode.window.createOutputChannel('NPU Trace Timeline');
  const attach = (uri: vscode.Uri, panel: vscode.WebviewPanel) => {
    const key = uri.toString();
    const p = new TimelinePanel(uri, panel, context.extensionUri, log, () => panels.delete(key));
    panels.set(key, p);
    return p;
  };

  context.subscriptions.push(
    log,
    vscode.commands.registerCommand(SHOW_TIMELINE, (arg?: unknown) => {
      const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
      if (!uri) {
        void vscode.window.showErrorMessage('Show Timeline: open a trace file (*.trace.jsonl) or pick one in the explorer first.');
        return;
      }
      const existing = panels.get(uri.toString());
      if (existing) {
        existing.reveal();
        return existing;
      }
      const panel = vscode.window.createWebviewPanel(VIEW_TYPE, `Timeline: ${fileName(uri)}`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, { enableScripts: true, retainContextWhenHidden: true });
      return attach(uri, panel);
    }),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        const raw = (state as SavedState | undefined)?.uri;
        let uri: vscode.Uri | undefined;
        try {
          uri = typeof raw === 'string' ? vscode.Uri.parse(raw, true) : undefined;
        } catch {
          uri = undefined;
        }
        if (!uri || panels.has(uri.toString())) {
          panel.dispose();
          return;
        }
        attach(uri, panel);
      },
    }),
    { dispose: () => { for (const p of panels.values()) p.panel.dispose(); } },
  );
}
