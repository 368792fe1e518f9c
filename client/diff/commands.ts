import * as vscode from 'vscode';
import { notComparable, pairProblem } from '../../core/diff/pair';
import { COMPARE_WITH } from '../timeline/commandIds';
import type { TimelineHost } from '../timeline/host';
import { DiffPanel } from './diffPanel';
import { formatOf, pickOtherRun } from './pickRun';
import { CompareTimelines } from './timelinesPanel';

export { COMPARE_WITH };

/**
 * "NPU Trace: Compare with…" (explorer, palette, editor title, the timeline's toolbar): picks the
 * other run and opens the Diff view of the two (A the file it runs on, B the one picked). A second
 * argument (a Uri) skips the pick.
 */
export function registerCompare(context: vscode.ExtensionContext, host: TimelineHost): void {
  const timelines = new CompareTimelines(context.extensionUri, host);
  context.subscriptions.push(
    timelines,
    vscode.commands.registerCommand(COMPARE_WITH, async (arg?: unknown, other?: unknown) => {
      const a = arg instanceof vscode.Uri ? arg : activeUri();
      if (!a) {
        void vscode.window.showErrorMessage('Compare with…: open a trace file or pick one in the explorer first.');
        return undefined;
      }
      const fa = formatOf(a);
      if (typeof fa === 'string') return void vscode.window.showErrorMessage(`Compare with…: ${fa}`);
      const cannot = notComparable(fa);
      if (cannot) return void vscode.window.showErrorMessage(`Compare with…: ${cannot}`);
      const b = other instanceof vscode.Uri ? other : await pickOtherRun(a, fa);
      if (!b) return undefined;
      const fb = formatOf(b);
      if (typeof fb === 'string') return void vscode.window.showErrorMessage(`Compare with…: ${fb}`);
      const problem = pairProblem(fa, fb);
      if (problem) return void vscode.window.showErrorMessage(`Compare with…: ${problem}`);
      return new DiffPanel(context.extensionUri, a, b, fa, (group) => {
        // A kernel-profiler buffer is drawn by its own editor, not by the timeline's worker.
        if (!fa.timeline) void vscode.window.showInformationMessage(`${fa.displayName} files have no timeline to compare here: open each in its editor.`);
        else timelines.show(a, b, fa, group);
      });
    }),
  );
}

/** The file of the active editor: a text editor's, else a custom editor's (a .gz timeline, a profiler buffer). */
export function activeUri(): vscode.Uri | undefined {
  const doc = vscode.window.activeTextEditor?.document.uri;
  if (doc) return doc;
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputText ? input.uri : undefined;
}
