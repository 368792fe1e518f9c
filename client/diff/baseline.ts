import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { baselineDiff, type BaselineDiff } from '../../core/diff/baseline';
import { notComparable } from '../../core/diff/pair';
import { escapeControl } from '../../core/common/escape';
import type { FormatDescriptor } from '../../core/formatDescriptor';
import type { AttrName } from '../../core/timeline/model';
import { JobCancelled, runJob } from '../../node/jobs/runJob';
import { type CompareJob, readCompareMessage } from '../../protocol/compareWorker';
import type { HostMessage } from '../../protocol/timeline';
import { CLEAR_BASELINE, PIN_BASELINE } from '../timeline/commandIds';
import type { BaselineSupport } from '../timeline/host';
import { activeUri } from './commands';
import { formatOf } from './pickRun';

/** Where the pinned baselines are kept: workspace state, format id → the file's URI. */
const STATE_KEY = 'npuTrace.baselines';
/** Comparisons kept while neither file changes (a few panels' worth). */
const CACHE_SIZE = 8;

type Answer = Extract<HostMessage, { type: 'baselineDiff' }>;

/**
 * The pinned baseline runs, one per format, remembered in the workspace's state across reloads,
 * and the comparison of a run with its format's baseline for the timeline's Summary: made by
 * dist/compareWorker.js (both files read from disk off the extension host's thread, as the Diff
 * view's), kept while neither file's size and modification time change.
 */
export class Baselines implements BaselineSupport, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly cache = new Map<string, BaselineDiff>();

  constructor(private readonly state: vscode.Memento, private readonly workerFile: string) {
    this.setContext();
  }

  /** `npuTrace.baselinePinned`: Clear Baseline is offered in the palette only when there is one. */
  private setContext(): void {
    void vscode.commands.executeCommand('setContext', 'npuTrace.baselinePinned', this.list().length > 0);
  }

  /** Format id → URI, as stored (a value that is not a string is ignored). */
  private all(): Record<string, string> {
    const raw = this.state.get<unknown>(STATE_KEY);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
    return Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }

  get(format: string): vscode.Uri | undefined {
    const s = this.all()[format];
    if (s === undefined) return undefined;
    try {
      return vscode.Uri.parse(s, true);
    } catch {
      return undefined;
    }
  }

  /** The formats with a baseline, and each one's file. */
  list(): [string, vscode.Uri][] {
    return Object.keys(this.all()).flatMap((f) => {
      const u = this.get(f);
      return u ? [[f, u] as [string, vscode.Uri]] : [];
    });
  }

  async pin(file: vscode.Uri, fmt: FormatDescriptor): Promise<void> {
    await this.state.update(STATE_KEY, { ...this.all(), [fmt.id]: file.toString() });
    this.setContext();
    this.changed.fire();
  }

  async clear(format: string): Promise<void> {
    const { [format]: _gone, ...rest } = this.all();
    await this.state.update(STATE_KEY, rest);
    this.setContext();
    this.changed.fire();
  }

  pinned(file: vscode.Uri): Extract<HostMessage, { type: 'baselinePinned' }> | undefined {
    const fmt = formatOf(file);
    if (typeof fmt === 'string' || notComparable(fmt)) return undefined;
    const base = this.get(fmt.id);
    return { type: 'baselinePinned', name: base ? nameOf(base) : '', self: base?.toString() === file.toString() };
  }

  async compare(file: vscode.Uri, token: vscode.CancellationToken): Promise<Answer> {
    const answer = (name: string, message: string, diff: BaselineDiff | null = null, attrs: Record<string, AttrName> = {}): Answer => ({ type: 'baselineDiff', name, message, diff, attrs });
    const fmt = formatOf(file);
    if (typeof fmt === 'string') return answer('', fmt);
    const cannot = notComparable(fmt);
    if (cannot) return answer('', cannot);
    const base = this.get(fmt.id);
    if (!base) return answer('', `No baseline is pinned for ${fmt.displayName} files: run "NPU Trace: Pin as Baseline" on one.`);
    const name = nameOf(base);
    if (base.toString() === file.toString()) return answer(name, `This file is the pinned baseline of ${fmt.displayName} files.`);
    const again = 'pin another run (NPU Trace: Pin as Baseline) or unpin it (NPU Trace: Clear Baseline)';
    if (base.scheme !== 'file') return answer(name, `The pinned baseline ${name} is not a file on disk: ${again}.`);
    let key: string;
    try {
      const [sa, sb] = await Promise.all([stat(base.fsPath), stat(file.fsPath)]);
      key = [base.fsPath, sa.size, sa.mtimeMs, file.fsPath, sb.size, sb.mtimeMs].join('\u0000');
    } catch (e) {
      const gone = (e as NodeJS.ErrnoException).code === 'ENOENT';
      return answer(name, gone ? `The pinned baseline ${name} no longer exists: ${again}.` : `The baseline or this file cannot be read: ${escapeControl(e instanceof Error ? e.message : String(e))}`);
    }
    const fb = formatOf(base);
    if (typeof fb === 'string') return answer(name, `The pinned baseline cannot be compared: ${fb}; ${again}.`);
    if (fb.id !== fmt.id) return answer(name, `The pinned baseline ${name} is now read as ${fb.displayName}, not ${fmt.displayName}: ${again}.`);
    const attrs = attrsOf(fmt);
    const cached = this.cache.get(key);
    if (cached) return answer(name, '', cached, attrs);
    try {
      const d = await this.run({ a: base.fsPath, b: file.fsPath, format: fmt.id, allOnly: true }, `Summary: comparing ${fileBase(file)} with the baseline ${fileBase(base)}`, token);
      const named: BaselineDiff = { ...d, a: { ...d.a, file: vscode.workspace.asRelativePath(base) }, b: { ...d.b, file: vscode.workspace.asRelativePath(file) } };
      this.cache.delete(key);
      this.cache.set(key, named);
      while (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
      return answer(name, '', named, attrs);
    } catch (e) {
      if (e instanceof JobCancelled || token.isCancellationRequested) return answer(name, 'The comparison with the baseline was cancelled: open the Summary again to retry.');
      return answer(name, `The comparison with the baseline failed: ${escapeControl(e instanceof Error ? e.message : String(e))}`);
    }
  }

  /** One comparison in the worker, with a cancellable progress notification; `token` cancels it too. */
  private run(job: CompareJob, title: string, token: vscode.CancellationToken): Promise<BaselineDiff> {
    const stop = new AbortController();
    const sub = token.onCancellationRequested(() => stop.abort());
    // Cancelled while the files were looked at (a newer request came): no worker is started.
    if (token.isCancellationRequested) stop.abort();
    return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, shown) => {
      shown.onCancellationRequested(() => stop.abort());
      let last = 0;
      const r = await runJob(this.workerFile, job, {
        read: readCompareMessage, signal: stop.signal, name: 'the comparison worker',
        onProgress: (p) => {
          const pct = Math.min(100, (100 * p.bytes) / Math.max(1, p.total));
          progress.report({ increment: pct - last });
          last = pct;
        },
      });
      return baselineDiff(r.all);
    })).finally(() => sub.dispose());
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The kinds whose groups are a context attribute's values in the format's timeline (an NPU trace's phase, layer_id). */
function attrsOf(fmt: FormatDescriptor): Record<string, AttrName> {
  return Object.fromEntries(Object.entries(fmt.diff?.timeline ?? {}).flatMap(([kind, m]) => (m?.by === 'attr' ? [[kind, m.attr]] : [])));
}

const nameOf = (u: vscode.Uri) => escapeControl(vscode.workspace.asRelativePath(u));
const fileBase = (u: vscode.Uri) => escapeControl(u.path.split('/').pop() ?? '');

/**
 * "NPU Trace: Pin as Baseline" (palette on a supported file, explorer, the timeline's toolbar) and
 * "NPU Trace: Clear Baseline": the run the Summary of every other run of its format is compared with.
 */
export function registerBaseline(context: vscode.ExtensionContext): Baselines {
  const baselines = new Baselines(context.workspaceState, vscode.Uri.joinPath(context.extensionUri, 'dist', 'compareWorker.js').fsPath);
  context.subscriptions.push(
    baselines,
    vscode.commands.registerCommand(PIN_BASELINE, async (arg?: unknown) => {
      const file = arg instanceof vscode.Uri ? arg : activeUri();
      if (!file) return void vscode.window.showErrorMessage('Pin as Baseline: open a trace file or pick one in the explorer first.');
      const fmt = formatOf(file);
      if (typeof fmt === 'string') return void vscode.window.showErrorMessage(`Pin as Baseline: ${fmt}`);
      const cannot = notComparable(fmt);
      if (cannot) return void vscode.window.showErrorMessage(`Pin as Baseline: ${cannot}`);
      await baselines.pin(file, fmt);
      vscode.window.setStatusBarMessage(`NPU Trace: ${nameOf(file)} is the baseline of ${fmt.displayName} files: their Summary shows the deltas against it`, 8000);
    }),
    vscode.commands.registerCommand(CLEAR_BASELINE, async (arg?: unknown) => {
      const pinned = baselines.list();
      const file = arg instanceof vscode.Uri ? arg : activeUri();
      const fmt = file ? formatOf(file) : undefined;
      // The file's format when it has a baseline; else the only one pinned; else ask which.
      let format = fmt && typeof fmt !== 'string' && pinned.some(([f]) => f === fmt.id) ? fmt.id : pinned.length === 1 ? pinned[0][0] : undefined;
      if (!pinned.length) return void vscode.window.setStatusBarMessage('NPU Trace: no baseline is pinned', 5000);
      if (!format) {
        const pick = await vscode.window.showQuickPick(pinned.map(([f, u]) => ({ label: f, description: nameOf(u) })), { title: 'Clear the baseline of…' });
        format = pick?.label;
      }
      if (!format) return;
      const was = baselines.get(format);
      await baselines.clear(format);
      vscode.window.setStatusBarMessage(`NPU Trace: ${was ? nameOf(was) : format} is no longer a baseline`, 5000);
    }),
  );
  return baselines;
}
