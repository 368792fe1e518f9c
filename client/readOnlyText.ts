import * as vscode from 'vscode';

/** Views kept at most: each holds a whole report; older ones fall back to the placeholder text. */
const MAX_VIEWS = 32;

/**
 * Read-only text views of reports (a kernel-profiler buffer's report, an NNAPI timing summary):
 * virtual documents of a scheme of their own, so closing one never asks to save an Untitled file,
 * and showing a report again for the same file replaces its text in place.
 */
export class ReadOnlyTextViews {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();

  constructor(context: vscode.ExtensionContext, private readonly scheme: string, placeholder: string) {
    const provider: vscode.TextDocumentContentProvider = {
      onDidChange: this.changed.event,
      provideTextDocumentContent: (uri) => this.contents.get(uri.toString()) ?? placeholder,
    };
    context.subscriptions.push(this.changed, vscode.workspace.registerTextDocumentContentProvider(scheme, provider));
  }

  /** Shows `text` beside the active editor under `title` (a file name: `x.kprof.npy - report.txt`); `key` tells two sources of one title apart. */
  async show(title: string, text: string, key = ''): Promise<void> {
    const target = vscode.Uri.from({ scheme: this.scheme, path: `/${title}`, query: key });
    const k = target.toString();
    this.contents.delete(k);
    this.contents.set(k, text);
    for (const old of this.contents.keys()) {
      if (this.contents.size <= MAX_VIEWS) break;
      this.contents.delete(old);
    }
    this.changed.fire(target);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target), { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
  }
}
