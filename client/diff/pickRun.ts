import * as vscode from 'vscode';
import { escapeControl } from '../../core/common/escape';
import type { FormatDescriptor } from '../../core/formatDescriptor';
import { formatOfFile } from '../../node/io/firstLine';

/** Files offered in the quick pick at most (a workspace of many runs: the rest by Browse…). */
const MAX_CANDIDATES = 200;
const BROWSE = 'Browse…';

/** A file's format as detection decides, or why it has none. */
export function formatOf(file: vscode.Uri): FormatDescriptor | string {
  if (file.scheme !== 'file') return `${escapeControl(file.toString())}: only files on disk can be compared`;
  try {
    return formatOfFile(file.fsPath) ?? `${escapeControl(file.fsPath)}: not a file of a known format`;
  } catch (e) {
    return `${escapeControl(file.fsPath)}: ${escapeControl(e instanceof Error ? e.message : String(e))}`;
  }
}

/**
 * The other run: a quick pick of the workspace's files of `fmt` (by its names, then by detection)
 * other than `a`, and Browse… (an open dialog) for any file. undefined when the user gave up.
 */
export async function pickOtherRun(a: vscode.Uri, fmt: FormatDescriptor): Promise<vscode.Uri | undefined> {
  const found = await vscode.workspace.findFiles(`**/{${fmt.names.join(',')}}`, '**/node_modules/**', MAX_CANDIDATES);
  const same = found.filter((u) => u.toString() !== a.toString() && (() => {
    const f = formatOf(u);
    return typeof f !== 'string' && f.id === fmt.id;
  })()).sort((x, y) => x.fsPath.localeCompare(y.fsPath));
  type Item = vscode.QuickPickItem & { uri?: vscode.Uri };
  const items: Item[] = [
    ...same.map((uri) => ({ label: escapeControl(uri.path.split('/').pop() ?? uri.fsPath), description: escapeControl(vscode.workspace.asRelativePath(uri)), uri })),
    { label: BROWSE, description: 'another file on disk', alwaysShow: true },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `Compare ${escapeControl(a.path.split('/').pop() ?? '')} (A, the baseline) with…`,
    placeHolder: same.length ? `B, the new run: a ${fmt.displayName} file` : `No other ${fmt.displayName} file in the workspace: Browse…`,
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Compare', title: `The run to compare with ${escapeControl(a.path.split('/').pop() ?? '')}` });
  return chosen?.[0];
}
