/**
 * The status-bar item of an open NPU trace: event count, span in cycles (and ns when the trace
 * gives its clock), problem count. The numbers come from the language server's model of the file
 * (`npuTrace/traceStatus`), never from parsing it here; the problem count from the diagnostics VS
 * Code already holds. Hidden for other editors; clicking it shows the timeline.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { TraceStatusRequest, type TraceStatus } from '../protocol/traceStatus';
import { statusBarText } from './statusBarText';
import { SHOW_TIMELINE } from './timeline/commands';

/** Edits come in bursts: ask the server once typing pauses. */
const EDIT_DEBOUNCE_MS = 300;

export function registerTraceStatusBar(context: vscode.ExtensionContext, getClient: () => LanguageClient | undefined): { refresh(): void } {
  const item = vscode.window.createStatusBarItem('npuTrace.traceStatus', vscode.StatusBarAlignment.Right, 101);
  item.name = 'NPU Trace: events, span, problems';
  item.command = SHOW_TIMELINE;
  /** The server's numbers per document, for the version they were computed for. */
  const cache = new Map<string, { version: number; status: TraceStatus }>();
  let timer: NodeJS.Timeout | undefined;
  let asked = 0;

  const active = () => {
    const doc = vscode.window.activeTextEditor?.document;
    return doc?.languageId === 'npu-trace' ? doc : undefined;
  };
  const render = (doc: vscode.TextDocument, status: TraceStatus) => {
    const { text, tooltip } = statusBarText(status, vscode.languages.getDiagnostics(doc.uri).length, path.basename(doc.uri.path));
    item.text = text;
    item.tooltip = tooltip;
    item.show();
  };
  const update = async (): Promise<void> => {
    const doc = active();
    if (!doc) {
      item.hide();
      return;
    }
    const key = doc.uri.toString();
    const hit = cache.get(key);
    if (hit) render(doc, hit.status);
    if (hit?.version === doc.version) return;
    const client = getClient();
    if (!client?.isRunning()) return;
    if (!hit) {
      item.text = '$(sync~spin) NPU trace';
      item.tooltip = 'Reading the trace…';
      item.show();
    }
    const mine = ++asked;
    try {
      const r = await client.sendRequest(TraceStatusRequest, { uri: key });
      if (!r.ok) return;
      const { ok: _ok, uri: _uri, version, ...status } = r;
      cache.set(key, { version, status });
      // A later request, or another editor, has taken over the item meanwhile.
      if (mine === asked && active() === doc) render(doc, status);
    } catch {
      // The server is stopping or restarting: the next change asks again.
    }
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void update(), EDIT_DEBOUNCE_MS);
  };

  context.subscriptions.push(
    item,
    { dispose: () => clearTimeout(timer) },
    vscode.window.onDidChangeActiveTextEditor(() => void update()),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === active()) later();
    }),
    // The server publishes after each parse: the problem count and, after an edit, the numbers follow.
    vscode.languages.onDidChangeDiagnostics((e) => {
      const doc = active();
      if (doc && e.uris.some((u) => u.toString() === doc.uri.toString())) later();
    }),
    vscode.workspace.onDidCloseTextDocument((d) => cache.delete(d.uri.toString())),
  );
  void update();
  return { refresh: () => void update() };
}
