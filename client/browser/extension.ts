import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions } from 'vscode-languageclient/browser';
import { registerContentDetection } from '../contentDetect';
import { registerInferscopeAnalyze } from '../inferscope/analyzeCommand';
import { SERVED_LANGUAGES } from '../languages';
import { registerNnapiSummary } from '../nnapi/summaryCommand';
import { EXPORT_CHROME_TRACE } from '../timeline/commandIds';
import { registerTimeline } from '../timeline/commands';
import { browserTimelineHost } from './timelineHost';
import { startServerTransport, type ServerTransport, type StartInProcess } from './serverTransport';

let client: LanguageClient | undefined;
let transport: ServerTransport | undefined;

/**
 * The browser client (package.json "browser", dist/web/extension.js; its entry hosts/webExtension.ts
 * gives it the server to start in-process) for vscode.dev and the web extension host: no Node, no
 * file system beyond vscode.workspace.fs. What needs Node (the CLI, tasks, Check All, .gz and
 * profiler buffers from disk, exports to a file) is left out, and package.json hides those commands
 * with `!npuTrace.web`.
 */
export async function activateBrowser(context: vscode.ExtensionContext, startInProcess: StartInProcess): Promise<void> {
  // Hides the commands this entry lacks (package.json: `!npuTrace.web`). Not `isWeb`: that holds in
  // any browser workbench, also code-server's, where the Node host runs the desktop client.
  void vscode.commands.executeCommand('setContext', 'npuTrace.web', true);
  const log = vscode.window.createOutputChannel('NPU Trace Inspector (web)');
  context.subscriptions.push(log);
  registerTimeline(context, browserTimelineHost);
  // The timeline page's Export… button runs this command: say why it does nothing here.
  context.subscriptions.push(vscode.commands.registerCommand(EXPORT_CHROME_TRACE, () =>
    vscode.window.showInformationMessage('Export as Chrome Trace writes a file through worker threads: use the desktop VS Code or `npu-trace export`.')));
  registerContentDetection(context);
  registerInferscopeAnalyze(context);
  registerNnapiSummary(context, () => client);
  // Also on the console: the web extension host forwards it to the browser's (the E2E journey reads it there).
  const say = (l: string) => {
    log.appendLine(l);
    console.log(`[npu-trace] ${l}`);
  };
  transport = await startServerTransport(vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'server.js').toString(true), say, startInProcess);
  say(`language server: ${transport.where}`);
  const clientOptions: LanguageClientOptions = {
    documentSelector: SERVED_LANGUAGES.map((language) => ({ language })),
    synchronize: { configurationSection: 'npuTrace' },
  };
  client = new LanguageClient('npuTrace', 'NPU Trace Inspector', clientOptions, transport.port as ConstructorParameters<typeof LanguageClient>[3]);
  context.subscriptions.push(client, { dispose: () => transport?.dispose() });
  await client.start();
}

export async function deactivateBrowser(): Promise<void> {
  await client?.stop();
  transport?.dispose();
}
