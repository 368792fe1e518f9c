import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { CmdqEntryOfLayerRequest, CmdqTimelineTargetRequest, CmdqTraceNotification, layerMapOf } from '../../protocol/cmdqTrace';

export const CHOOSE_TRACE = 'npuTrace.cmdq.chooseTrace';
export const SHOW_IN_TIMELINE = 'npuTrace.cmdq.showInTimeline';
/** Run by the timeline's *Show in CMDQ* with the trace's layer_id (not in the palette). */
export const SHOW_IN_CMDQ = 'npuTrace.cmdq.showInCmdq';
const SHOW_TIMELINE = 'npuTrace.showTimeline';

/** Fires when the trace the CMDQ is joined with, or the layer map, may have changed (the graph reloads). */
export const joinChanged = new vscode.EventEmitter<void>();

/**
 * The client side of the CMDQ ↔ trace join (README "Join with a trace"): tells the server which
 * trace was chosen and `npuTrace.cmdq.layerMap`; the server does the join (hover, layer times,
 * the targets of Show Layer in Timeline and Show in CMDQ), so every view matches alike.
 */
export function registerCmdqTraceJoin(context: vscode.ExtensionContext, client: LanguageClient): void {
  let chosen: string | null = null;
  const send = async () => {
    const layerMap = layerMapOf(vscode.workspace.getConfiguration('npuTrace.cmdq').get('layerMap')) ?? {};
    await client.sendNotification(CmdqTraceNotification, { trace: chosen, layerMap });
    joinChanged.fire();
  };
  void send();
  context.subscriptions.push(
    joinChanged,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('npuTrace.cmdq.layerMap')) void send();
    }),
    vscode.workspace.onDidOpenTextDocument((d) => {
      if (d.languageId === 'npu-trace') joinChanged.fire();
    }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.languageId === 'npu-trace') joinChanged.fire();
    }),
    vscode.commands.registerCommand(CHOOSE_TRACE, async (arg?: unknown) => {
      const uri = arg instanceof vscode.Uri ? arg : await pickTrace();
      if (!uri) return;
      // The server joins with documents it holds: the trace is opened beside, as a preview.
      let doc: vscode.TextDocument;
      try {
        doc = await vscode.workspace.openTextDocument(uri);
      } catch (e) {
        // VS Code hands no document over 50 MB (or a binary .gz) to extensions: the CLI joins those.
        void vscode.window.showErrorMessage(`Choose Trace for Layer Times: ${e instanceof Error ? e.message : String(e)} (npu-trace cmdq-graph --trace joins any trace).`);
        return;
      }
      if (doc.languageId !== 'npu-trace') {
        void vscode.window.showErrorMessage(`Choose Trace for Layer Times: ${uri.path.slice(uri.path.lastIndexOf('/') + 1)} is not an NPU trace (*.trace.jsonl).`);
        return;
      }
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true });
      chosen = uri.toString();
      await send();
    }),
    vscode.commands.registerCommand(SHOW_IN_TIMELINE, async () => {
      const ed = vscode.window.activeTextEditor;
      if (ed?.document.languageId !== 'cmdq') {
        void vscode.window.showErrorMessage('Show Layer in Timeline: put the cursor on an entry of a CMDQ file.');
        return;
      }
      const r = await client.sendRequest(CmdqTimelineTargetRequest, { uri: ed.document.uri.toString(), position: ed.selection.active });
      if (!r.ok) {
        void vscode.window.showWarningMessage(`Show Layer in Timeline: ${r.reason}.`);
        return;
      }
      const panel = await vscode.commands.executeCommand<{ showLine?(line: number): void } | undefined>(SHOW_TIMELINE, vscode.Uri.parse(r.trace, true));
      panel?.showLine?.(r.line);
    }),
    vscode.commands.registerCommand(SHOW_IN_CMDQ, async (layer: unknown) => {
      if (typeof layer !== 'string') return;
      const r = await client.sendRequest(CmdqEntryOfLayerRequest, { layer });
      if (!r.ok) {
        void vscode.window.showWarningMessage(`Show in CMDQ: ${r.reason}.`);
        return;
      }
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(r.uri, true));
      const range = new vscode.Range(r.range.start.line, r.range.start.character, r.range.end.line, r.range.end.character);
      // In the group already holding the CMDQ, so the timeline (the active group) stays in view.
      const key = doc.uri.toString();
      const group = vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key));
      const editor = await vscode.window.showTextDocument(doc, { viewColumn: group?.viewColumn ?? vscode.ViewColumn.Beside, preserveFocus: false, selection: range });
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }),
  );
}

/** The open NPU traces, then "Browse…". */
async function pickTrace(): Promise<vscode.Uri | undefined> {
  const open = vscode.workspace.textDocuments.filter((d) => d.languageId === 'npu-trace');
  const browse = { label: '$(folder-opened) Browse…', uri: undefined as vscode.Uri | undefined };
  const items = [...open.map((d) => ({ label: d.uri.path.slice(d.uri.path.lastIndexOf('/') + 1), description: vscode.workspace.asRelativePath(d.uri), uri: d.uri as vscode.Uri | undefined })), browse];
  const pick = open.length ? await vscode.window.showQuickPick(items, { placeHolder: 'The NPU trace whose layer times the CMDQ hover and graph show' }) : browse;
  if (!pick) return undefined;
  if (pick.uri) return pick.uri;
  const files = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'NPU trace': ['jsonl'] }, openLabel: 'Choose Trace' });
  return files?.[0];
}
