import * as vscode from 'vscode';
import { escapeControl } from '../../core/common/escape';
import type { TimelineHost } from './host';
import { escapeHtml, staticPage } from '../webviewPage';
import { fileName } from './documentRequest';
import { TimelinePanel, VIEW_TYPE } from './panel';
import { mayRestore, savedUri } from './restore';
import { ANY_TIMELINE_EDITOR, COMPRESSED_TIMELINE_EDITOR } from '../../core/formatDescriptor';
import { TimelineEditorStatus } from './editorStatus';
import { FORMATS } from '../../core/formats';

export const SHOW_TIMELINE = 'npuTrace.showTimeline';
export const SHOW_SUMMARY = 'npuTrace.showSummary';

/**
 * "NPU Trace: Show Timeline": one panel per file, beside the editor, restored after a window
 * reload by the panel serializer.
 */
export function registerTimeline(context: vscode.ExtensionContext, host: TimelineHost, onCompressedOpened?: (uri: vscode.Uri) => void): void {
  const panels = new Map<string, TimelinePanel>();
  const log = vscode.window.createOutputChannel('NPU Trace Timeline');
  const status = new TimelineEditorStatus(SHOW_SUMMARY);
  const attach = (uri: vscode.Uri, panel: vscode.WebviewPanel) => {
    const key = uri.toString();
    const p = new TimelinePanel(uri, panel, context.extensionUri, log, () => panels.delete(key), host);
    panels.set(key, p);
    return p;
  };

  /** `column`: where a new panel opens (a caller's own group); beside the active editor when not a column. */
  const show = (arg: unknown, what: string, column?: unknown): TimelinePanel | undefined => {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri ?? activeCustomEditorUri();
    if (!uri) {
      void vscode.window.showErrorMessage(`${what}: open a trace file (*.trace.jsonl) or pick one in the explorer first.`);
      return undefined;
    }
    const existing = panels.get(uri.toString());
    if (existing) {
      existing.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, `Timeline: ${fileName(uri)}`, { viewColumn: asColumn(column) ?? vscode.ViewColumn.Beside, preserveFocus: false }, { enableScripts: true, retainContextWhenHidden: true });
    return attach(uri, panel);
  };

  // The worker a build runs in is started when a trace editor becomes active, so the first Show
  // Timeline finds its bundle loaded (bench `vscode`: the first build of the 21k-event trace).
  const prestart = (ed: vscode.TextEditor | undefined) => {
    if (ed && FORMATS.some((f) => f.id === ed.document.languageId && f.timeline)) host.prestart?.();
  };
  prestart(vscode.window.activeTextEditor);

  context.subscriptions.push(
    log,
    vscode.window.onDidChangeActiveTextEditor(prestart),
    vscode.commands.registerCommand(SHOW_TIMELINE, (arg?: unknown, column?: unknown) => show(arg, 'Show Timeline', column)),
    // The Summary is a tab of the timeline panel: its numbers come from the same worker parse.
    vscode.commands.registerCommand(SHOW_SUMMARY, (arg?: unknown) => {
      const p = show(arg, 'Show Summary');
      p?.showSummary();
      return p;
    }),
    // A gzipped trace, or a binary one (a Perfetto protobuf trace), opens in the timeline itself,
    // read-only: VS Code has no text editor for these bytes.
    status,
    ...[COMPRESSED_TIMELINE_EDITOR, ANY_TIMELINE_EDITOR].map((viewType) => vscode.window.registerCustomEditorProvider(viewType, {
      openCustomDocument: (uri) => ({ uri, dispose: () => undefined }),
      resolveCustomEditor: (doc, panel) => {
        panels.get(doc.uri.toString())?.panel.dispose();
        const p = attach(doc.uri, panel);
        p.onComplete = (model) => status.set(doc.uri, model);
        panel.onDidDispose(() => status.forget(doc.uri));
        onCompressedOpened?.(doc.uri);
      },
    }, { webviewOptions: { retainContextWhenHidden: true }, supportsMultipleEditorsPerDocument: false })),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        // The saved state comes from the page: its shape is checked, and the file it names is
        // read only if the user has it open or in the workspace, else after asking.
        const raw = savedUri(state);
        let uri: vscode.Uri | undefined;
        try {
          uri = raw === undefined ? undefined : vscode.Uri.parse(raw, true);
        } catch {
          uri = undefined;
        }
        if (!uri || panels.has(uri.toString())) {
          panel.dispose();
          return;
        }
        const key = uri.toString();
        const known = {
          open: vscode.workspace.textDocuments.some((d) => d.uri.toString() === key),
          inWorkspace: vscode.workspace.getWorkspaceFolder(uri) !== undefined,
        };
        if (mayRestore(known)) {
          attach(uri, panel);
          return;
        }
        panel.webview.options = { enableScripts: false };
        panel.webview.html = staticPage(`<p>This timeline showed <code>${escapeHtml(uri.scheme === 'file' ? uri.fsPath : key)}</code>, which is neither open nor in this workspace.</p>`
          + '<p>Open the file and run <b>NPU Trace: Show Timeline</b> to see it again.</p>');
        const target = uri;
        let closed = false;
        const sub = panel.onDidDispose(() => { closed = true; });
        const where = escapeControl(target.scheme === 'file' ? target.fsPath : key);
        const choice = await vscode.window.showInformationMessage(`Restore the timeline of ${where}? That file is neither open nor in this workspace.`, 'Restore');
        sub.dispose();
        if (choice === 'Restore' && !closed && !panels.has(key)) attach(target, panel);
      },
    }),
    { dispose: () => { for (const p of panels.values()) p.panel.dispose(); } },
  );
}

function asColumn(c: unknown): vscode.ViewColumn | undefined {
  return typeof c === 'number' && Number.isInteger(c) && c >= 1 && c <= 9 ? c : undefined;
}

/**
 * The file of the active tab when no text editor is active: a read-only timeline editor's, or a
 * text tab's whose file is too large for VS Code to open as text (its timeline is read from disk).
 */
function activeCustomEditorUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputText) return input.uri;
  return input instanceof vscode.TabInputCustom && (input.viewType === COMPRESSED_TIMELINE_EDITOR || input.viewType === ANY_TIMELINE_EDITOR) ? input.uri : undefined;
}
