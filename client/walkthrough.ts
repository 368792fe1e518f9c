/**
 * The commands behind the Get Started walkthrough's buttons. The examples ship inside the
 * extension; each is copied to the extension's storage before it opens, so that trying an edit
 * never writes into the installed extension, and every run starts from the same file.
 */
import * as vscode from 'vscode';
import { KPROF_EDITOR } from './kprof/editor';
import { SHOW_SUMMARY, SHOW_TIMELINE } from './timeline/commands';

export const OPEN_EXAMPLE_TRACE = 'npuTrace.walkthrough.openExampleTrace';
export const EXAMPLE_TIMELINE = 'npuTrace.walkthrough.showExampleTimeline';
export const EXAMPLE_SUMMARY = 'npuTrace.walkthrough.showExampleSummary';
export const OPEN_EXAMPLE_CMDQ = 'npuTrace.walkthrough.openExampleCmdq';
export const EXAMPLE_PYTORCH = 'npuTrace.walkthrough.showExamplePytorch';
export const EXAMPLE_PYTORCH_SUMMARY = 'npuTrace.walkthrough.showExamplePytorchSummary';
export const OPEN_EXAMPLE_KPROF = 'npuTrace.walkthrough.openExampleKprof';

const TRACE = 'example.trace.jsonl';
const CMDQ = 'example.cmdq.json';
const PYTORCH = 'example.pt.trace.json';
/** The buffer and its event names, which the editor finds beside it. */
const KPROF = ['example.kprof.npy', 'example.kprof.names.txt'];

export function registerWalkthrough(context: vscode.ExtensionContext): void {
  const copyOf = (name: string) => vscode.Uri.joinPath(context.globalStorageUri, 'walkthrough', name);

  const copy = async (name: string): Promise<vscode.Uri> => {
    const target = copyOf(name);
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
    await vscode.workspace.fs.copy(vscode.Uri.joinPath(context.extensionUri, 'walkthrough', name), target, { overwrite: true });
    return target;
  };

  /** The example, copied afresh unless it is already open (an open copy keeps the user's edits). */
  const open = async (name: string): Promise<vscode.TextEditor> => {
    const target = copyOf(name);
    const already = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.toString());
    if (!already) await copy(name);
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === target.toString());
    // Beside the walkthrough, so its next step stays in view.
    return vscode.window.showTextDocument(already?.uri ?? target, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.Beside, preview: false });
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_EXAMPLE_TRACE, () => open(TRACE)),
    vscode.commands.registerCommand(OPEN_EXAMPLE_CMDQ, () => open(CMDQ)),
    // The walkthrough has the focus when its buttons run, not the trace: name the file.
    vscode.commands.registerCommand(EXAMPLE_TIMELINE, async () => vscode.commands.executeCommand(SHOW_TIMELINE, (await open(TRACE)).document.uri)),
    vscode.commands.registerCommand(EXAMPLE_SUMMARY, async () => vscode.commands.executeCommand(SHOW_SUMMARY, (await open(TRACE)).document.uri)),
    vscode.commands.registerCommand(EXAMPLE_PYTORCH, async () => vscode.commands.executeCommand(SHOW_TIMELINE, (await open(PYTORCH)).document.uri)),
    vscode.commands.registerCommand(EXAMPLE_PYTORCH_SUMMARY, async () => vscode.commands.executeCommand(SHOW_SUMMARY, (await open(PYTORCH)).document.uri)),
    vscode.commands.registerCommand(OPEN_EXAMPLE_KPROF, async () => {
      const [buffer] = await Promise.all(KPROF.map(copy));
      await vscode.commands.executeCommand('vscode.openWith', buffer, KPROF_EDITOR, vscode.ViewColumn.Beside);
    }),
  );
}
