import * as vscode from 'vscode';

/** The task type of `npu-trace check`, whose text output the `$npu-trace` problem matcher reads. */
export const CHECK_TASK_TYPE = 'npu-trace';

interface CheckTaskDefinition extends vscode.TaskDefinition {
  /** Files, directories or globs, relative to the workspace folder. */
  files: string[];
  failOn?: 'error' | 'warning' | 'information';
  maxProblems?: number;
}

const isDefinition = (d: vscode.TaskDefinition): d is CheckTaskDefinition =>
  Array.isArray(d.files) && d.files.every((f: unknown) => typeof f === 'string');

/**
 * The bundled CLI run by the editor's own Node (Electron as Node), so a task needs nothing on PATH.
 * Shared with "Check All Trace Files in Workspace".
 */
export function bundledCli(context: vscode.ExtensionContext): { command: string; args: string[]; env: Record<string, string> } {
  return { command: process.execPath, args: [context.asAbsolutePath('dist/cli.js')], env: { ELECTRON_RUN_AS_NODE: '1' } };
}

/** A task runs in the workspace folder, where the matcher resolves the relative paths it prints. */
function checkTask(context: vscode.ExtensionContext, def: CheckTaskDefinition, scope: vscode.TaskScope | vscode.WorkspaceFolder): vscode.Task {
  const args = ['check'];
  if (def.failOn) args.push('--fail-on', def.failOn);
  if (def.maxProblems !== undefined) args.push('--max-problems', String(def.maxProblems));
  args.push(...def.files);
  const cli = bundledCli(context);
  const exec = new vscode.ProcessExecution(cli.command, [...cli.args, ...args], { cwd: '${workspaceFolder}', env: cli.env });
  const task = new vscode.Task(def, scope, `check ${def.files.join(' ')}`, CHECK_TASK_TYPE, exec, ['$npu-trace']);
  task.group = vscode.TaskGroup.Test;
  return task;
}

/** Offers "npu-trace: check ." per folder, and runs the `npu-trace` tasks of tasks.json. */
export function registerCheckTask(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.tasks.registerTaskProvider(CHECK_TASK_TYPE, {
    provideTasks: () => (vscode.workspace.workspaceFolders ?? []).map((f) => checkTask(context, { type: CHECK_TASK_TYPE, files: ['.'] }, f)),
    resolveTask: (task) => (isDefinition(task.definition) ? checkTask(context, task.definition, task.scope ?? vscode.TaskScope.Workspace) : undefined),
  }));
}
