import * as vscode from 'vscode';

/** Save as CSV/JSON (a table of the timeline page): the user picks where, next to the trace `uri` by default. */
export async function saveTable(uri: vscode.Uri, name: string, text: string): Promise<void> {
  const dir = uri.scheme === 'file' ? vscode.Uri.joinPath(uri, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
  const json = name.endsWith('.json');
  const target = await vscode.window.showSaveDialog({
    defaultUri: dir ? vscode.Uri.joinPath(dir, name) : undefined,
    filters: json ? { JSON: ['json'] } : { CSV: ['csv'] },
    saveLabel: json ? 'Save as JSON' : 'Save as CSV',
  });
  if (!target) return;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
}
