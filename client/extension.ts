import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerCheckAll } from './checkAll';
import { registerCheckTask } from './checkTask';
import { registerContentDetection } from './contentDetect';
import { registerCompare } from './diff/commands';
import { registerBaseline } from './diff/baseline';
import { registerCmdqGraph } from './cmdq/graphPanel';
import { registerCmdqTraceJoin } from './cmdq/traceJoin';
import { registerInferscopeAnalyze } from './inferscope/analyzeCommand';
import { registerKprofEditor } from './kprof/editor';
import { registerTimeline } from './timeline/commands';
import { registerTimelineExports } from './timeline/exportCommands';
import { nodeTimelineHost } from './timeline/nodeHost';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { registerNnapiSummary } from './nnapi/summaryCommand';
import { SERVED_LANGUAGES } from './languages';
import { registerSummaryStatus } from './summaryStatus';
import { registerTraceStatusBar } from './statusBarTrace';
import { registerWalkthrough } from './walkthrough';

let client: LanguageClient | undefined;

export { SERVED_LANGUAGES };

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // A gzipped trace, opened in its timeline, is checked as Check All checks files.
  const checkFile = registerCheckAll(context);
  // The desktop's timelines compare their Summary with a pinned baseline (worker threads).
  registerTimeline(context, { ...nodeTimelineHost(context.extensionUri), baseline: registerBaseline(context) }, checkFile);
  registerTimelineExports(context);
  registerCompare(context, nodeTimelineHost(context.extensionUri));
  registerKprofEditor(context);
  registerSummaryStatus(context);
  registerCheckTask(context);
  registerWalkthrough(context);
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=127.0.0.1:6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: SERVED_LANGUAGES.map((language) => ({ language })),
    synchronize: { configurationSection: 'npuTrace' },
  };
  registerContentDetection(context);
  registerCmdqGraph(context, () => client);
  registerInferscopeAnalyze(context);
  client = new LanguageClient('npuTrace', 'NPU Trace Inspector', serverOptions, clientOptions);
  context.subscriptions.push(client);
  registerNnapiSummary(context, () => client);
  const status = registerTraceStatusBar(context, () => client);
  await client.start();
  status.refresh();
  registerCmdqTraceJoin(context, client);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
