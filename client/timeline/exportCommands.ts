import * as vscode from 'vscode';
import { EXPORT_CHROME_TRACE, exportChromeTraceCommand } from './exportCommand';
import { EXPORT_PARQUET, exportParquetCommand } from './exportParquetCommand';

/** The export commands: they write files through worker threads, so only the desktop client registers them. */
export function registerTimelineExports(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(EXPORT_CHROME_TRACE, (arg?: unknown) => exportChromeTraceCommand(context.extensionUri, arg)),
    vscode.commands.registerCommand(EXPORT_PARQUET, (arg?: unknown) => exportParquetCommand(context.extensionUri, arg)),
  );
}
