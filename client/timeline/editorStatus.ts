import * as vscode from 'vscode';
import { ANY_TIMELINE_EDITOR, COMPRESSED_TIMELINE_EDITOR } from '../../core/formatDescriptor';
import type { TimelineModel } from '../../core/timeline/model';
import { timelineStatusText, type TimelineFacts } from '../statusBarText';
import { fileName } from './documentRequest';

/**
 * The status-bar item of the read-only timeline editor (a Perfetto protobuf trace, a gzipped
 * trace), as the NPU trace item is for a text trace: events, span and problems of the file whose
 * editor is active. The numbers come from the model the editor drew; the problem count from the
 * diagnostics VS Code holds for the file (the check run when it opened). Clicking it shows the Summary.
 */
export class TimelineEditorStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('npuTrace.timelineEditorStatus', vscode.StatusBarAlignment.Right, 101);
  private readonly facts = new Map<string, TimelineFacts>();
  private readonly subs: vscode.Disposable[];

  constructor(summaryCommand: string) {
    this.item.name = 'NPU Trace: events, span, problems of the timeline editor';
    this.item.command = summaryCommand;
    this.subs = [
      vscode.window.tabGroups.onDidChangeTabs(() => this.update()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.update()),
      vscode.languages.onDidChangeDiagnostics(() => this.update()),
    ];
  }

  set(uri: vscode.Uri, model: TimelineModel): void {
    this.facts.set(uri.toString(), {
      format: model.format, items: model.items.start.length, tracks: model.tracks.length, span: model.items.start.length ? model.t1 - model.t0 : 0,
      unit: model.unit, nsPerCycle: model.nsPerCycle,
    });
    this.update();
  }

  forget(uri: vscode.Uri): void {
    this.facts.delete(uri.toString());
    this.update();
  }

  private update(): void {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const uri = input instanceof vscode.TabInputCustom && (input.viewType === COMPRESSED_TIMELINE_EDITOR || input.viewType === ANY_TIMELINE_EDITOR) ? input.uri : undefined;
    const f = uri && this.facts.get(uri.toString());
    if (!uri || !f) {
      this.item.hide();
      return;
    }
    const { text, tooltip } = timelineStatusText(f, vscode.languages.getDiagnostics(uri).length, fileName(uri));
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.show();
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.item.dispose();
  }
}
