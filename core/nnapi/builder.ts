import { ownString } from '../common/ownString';
import type { Diagnostic } from '../common/diagnostic';
import { range } from '../common/diagnostic';
import { LineMap } from './lineMap';
import { readBeginMark, tagRange } from './mark';
import { quoted as quote } from './naming';
import type { MarkRow } from './row';
import { preOrder, Scope } from './scope';
import type { ScopeThread } from './scopeThread';
import { cloneTree, dependsOnDriver, settleAlone, settlesAlone, Settled } from './settle';

/** Functions whose begin/end times feed the special cases of §6 (runtime and driver execution, counts). */
export const TIMED_FUNCTIONS = new Set([
  'ANeuralNetworksExecution_startCompute', 'ANeuralNetworksEvent_wait',
  'ANeuralNetworksExecution_create', 'ANeuralNetworksExecution_free', 'ANeuralNetworksEvent_create', 'ANeuralNetworksEvent_free',
  'ANeuralNetworksExecution_setInput', 'ANeuralNetworksExecution_setOutput',
  'ANeuralNetworksExecution_setInputFromMemory', 'ANeuralNetworksExecution_setOutputFromMemory',
  'HIDL::IPreparedModel::execute::server', 'HIDL::IExecutionCallback::notify::client',
]);

/** One tracked thread within one run. */
export class ThreadState implements ScopeThread {
  readonly root = new Scope('root', Number.NaN, null, null, 'PO', false, -1, '', '');
  readonly stack: Scope[] = [];
  /** Application phase → function → begin ms, end ms, begin ms, … (flat) in the order the scopes closed. */
  readonly beginsEnds = new Map<string, Map<string, number[]>>();
  readonly laPeCounts = new Map<string, number>();
  /** Real scopes (not dummies) in the order they opened. */
  readonly scopes: Scope[] = [];
  firstLine = -1;
  lastLine = -1;
  task = '';
  /** Filled by the analysis: `appPhase_layer_phase` → ms. */
  stats = new Map<string, number>();
  /** Problems found while building; kept only if the thread turns out to be tracked. */
  readonly problems: Diagnostic[] = [];
  /**
   * A summary's results (settle.ts): top-level scopes settled as they closed, for a process that
   * is not a driver and for one that is; after `finish`, `summary` is the one that applies.
   */
  settled: [Settled, Settled] | undefined;
  summary: Settled | undefined;
  /**
   * A summary's view of the stack, entry by entry: the scope the rewriting will make the parent of
   * what opens inside that entry (the entry, or when it is dropped — a dummy, `LX` — the one
   * below it; null for the root), and the open `PE` scopes of that view by layer.
   */
  readonly effective: (Scope | null)[] = [];
  readonly openPe = new Map<string, number>();

  constructor(readonly pid: string, public tgid: string, public isDriver: boolean, readonly run: number) {}

  get current(): Scope {
    return this.stack.length ? this.stack[this.stack.length - 1] : this.root;
  }

  begins(appPhase: string, fn: string): number[] {
    return (this.beginsEnds.get(appPhase)?.get(fn) ?? []).filter((_x, i) => i % 2 === 0);
  }
  ends(appPhase: string, fn: string): number[] {
    return (this.beginsEnds.get(appPhase)?.get(fn) ?? []).filter((_x, i) => i % 2 === 1);
  }

  /** Called for each closed scope of a timed function; nested maps, so no key string per call. */
  addBeginEnd(appPhase: string, fn: string, beginMs: number, endMs: number): void {
    let byFn = this.beginsEnds.get(appPhase);
    if (!byFn) this.beginsEnds.set(appPhase, (byFn = new Map()));
    let list = byFn.get(fn);
    if (!list) byFn.set(fn, (list = []));
    list.push(beginMs, endMs);
  }
}

/** Statistics are produced per run; a run starts at each `[NN_LA_PO]` mark (rules §2). */
export class Run {
  readonly threads = new Map<string, ThreadState>();
  complete = true;
  lastTime = Number.NaN;
  lastLine = -1;
  constructor(readonly index: number, public startingMark: string, public startLine: number) {}
}

/**
 * Where runs start (rules §2): at each `[NN_LA_PO]` mark. The rows before the first such mark
 * belong to the first run, which that mark only names. Shared by the builder and the editor's
 * run splitter, so the two cut a trace alike.
 */
export class RunBoundaries {
  private seen = false;

  /** For each mark row in order: `new` when it starts a run, `first` when it names the first one. */
  at(mark: string): 'new' | 'first' | undefined {
    if (!mark.includes('[NN_LA_PO]')) return undefined;
    const r = this.seen ? 'new' : 'first';
    this.seen = true;
    return r;
  }
}

/** The application phase stack, shared by every thread of a run (warm-up/benchmark reach the driver). */
class AppPhaseStack {
  private stack: string[] = [];
  current(): string {
    return this.stack.length ? this.stack[this.stack.length - 1] : 'PO';
  }
  push(p: string): void {
    this.stack.push(p);
  }
  pop(): void {
    this.stack.pop();
  }
}

export interface Built {
  runs: Run[];
  diagnostics: Diagnostic[];
  /** `B` row → the scope it opened. */
  opened: LineMap<Scope>;
  /** `E` (or `[SW]`) row → the real scope it ends. */
  closed: LineMap<Scope>;
}

/**
 * Builds every thread's scope tree in one pass over the rows (rules §2–§3), run by run.
 *
 * The reference decides which threads count over the whole file first. Building speculatively for
 * every thread gives the same trees without keeping the rows for a second pass: a thread that is
 * not tracked never touches shared state (run starts and the application phase come only from
 * `[NN` marks, which make their thread tracked), so its tree and problems are simply dropped at the
 * end. Likewise the CPU/driver layer mapping waits for the end, when the driver processes are known.
 */
export class RunBuilder {
  private readonly runs: Run[] = [];
  private run: Run;
  private readonly boundaries = new RunBoundaries();
  private app = new AppPhaseStack();
  private lastThread: ThreadState | undefined;
  readonly opened: LineMap<Scope>;
  readonly closed: LineMap<Scope>;

  /**
   * `firstRun`, `firstLine`: to build one run alone (the editor rebuilds only the runs an edit
   * touched): its index among the file's runs, and its first row. `summaryOnly`: for the numbers
   * and problems alone (CLI `check`, `nnapi-stats`): each top-level scope is settled when it closes
   * (settle.ts) and no scope is kept for the editor (`opened`, `closed` and `scopes` stay empty).
   */
  constructor(firstRun = 0, firstLine = 0, private readonly summaryOnly = false) {
    this.run = new Run(firstRun, '', -1);
    this.opened = new LineMap<Scope>(firstLine);
    this.closed = new LineMap<Scope>(firstLine);
  }

  row(r: MarkRow, line: number): void {
    const mark = r.mark;
    const starts = this.boundaries.at(mark);
    if (starts === 'new') {
      this.runs.push(this.run);
      this.run = new Run(this.run.index + 1, ownString(mark), line);
      this.app = new AppPhaseStack();
    } else if (starts === 'first') {
      this.run.startingMark = ownString(mark);
      this.run.startLine = line;
    }
    const t = this.thread(r, line);
    this.run.lastTime = r.time;
    this.run.lastLine = line;
    if (mark.charCodeAt(0) === 66 /* B */) this.begin(t, r, line);
    else this.end(t, r, line, 'E');
  }

  /** Keeps the tracked threads, maps CPU/driver layers by process, and closes each run (§2, §3). */
  finish(tracked: ReadonlyMap<string, string>, driverTgids: ReadonlySet<string>): Built {
    this.runs.push(this.run);
    const diagnostics: Diagnostic[] = [];
    for (const run of this.runs) {
      for (const [pid, t] of run.threads) {
        if (this.summaryOnly) {
          if (tracked.has(pid)) this.finishSummary(run, t, tracked.get(pid)!, driverTgids, diagnostics);
          else run.threads.delete(pid);
          continue;
        }
        if (!tracked.has(pid)) {
          for (const s of t.scopes) {
            this.opened.set(s.line, undefined);
            if (s.endLine >= 0) this.closed.set(s.endLine, undefined);
            if (s.functionEndLine >= 0) this.closed.set(s.functionEndLine, undefined);
          }
          run.threads.delete(pid);
          continue;
        }
        t.tgid = tracked.get(pid)!;
        t.isDriver = driverTgids.has(t.tgid);
        for (const s of t.scopes) s.layer = mapLayer(s.layer!, t.isDriver);
        diagnostics.push(...t.problems);
        closeRun(run, t, diagnostics);
      }
    }
    return { runs: this.runs, diagnostics, opened: this.opened, closed: this.closed };
  }

  /** A tracked thread of a summary: what is still open is closed and settled, and its results chosen. */
  private finishSummary(run: Run, t: ThreadState, tgid: string, driverTgids: ReadonlySet<string>, diagnostics: Diagnostic[]): void {
    t.tgid = tgid;
    t.isDriver = driverTgids.has(tgid);
    const open = t.root.children;
    for (const top of open) preOrderScopes(top, (s) => (s.layer = mapLayer(s.layer!, t.isDriver)));
    // A dummy still open stands for a scope settled before, mapped then for either answer: mapping
    // again with the right one gives what mapping once would.
    for (const s of t.stack) if (s.kind === 'dummy' && s.origin?.layer) s.origin.layer = mapLayer(s.origin.layer, t.isDriver);
    diagnostics.push(...t.problems);
    closeRun(run, t, diagnostics);
    const into = (t.settled ??= [new Settled(), new Settled()])[t.isDriver ? 1 : 0];
    for (const top of open.splice(0)) Settled.settle(top, t.pid, [into]);
    t.stats = into.finish();
    t.summary = into;
    t.settled = undefined;
  }

  /**
   * Summary: a scope opens. A `PU` phase is resolved now, from the scope the rewriting will make
   * its parent (the rewriting resolves it the same way, so it stays), then the view is extended.
   */
  private enter(t: ThreadState, s: Scope): void {
    const parent = t.effective.length ? t.effective[t.effective.length - 1] : null;
    if (s.phaseTag === 'PU') s.effPhase = parent ? parent.effPhase : null;
    const dropped = s.kind === 'dummy' || s.layer === 'LX';
    t.effective.push(dropped ? parent : s);
    if (!dropped && s.phase() === 'PE') t.openPe.set(s.layer!, (t.openPe.get(s.layer!) ?? 0) + 1);
  }

  /** Summary: a scope left the stack. */
  private leave(t: ThreadState, s: Scope): void {
    const self = t.effective.pop();
    if (self === s && s.phase() === 'PE') t.openPe.set(s.layer!, t.openPe.get(s.layer!)! - 1);
  }

  /** Summary: a top-level scope just closed; its tree is settled and let go (settle.ts). */
  private settle(t: ThreadState, top: Scope): void {
    const kids = t.root.children;
    if (kids[kids.length - 1] !== top) return;
    kids.pop();
    top.parent = null;
    const [notDriver, driver] = (t.settled ??= [new Settled(), new Settled()]);
    if (!dependsOnDriver(top)) return Settled.settle(top, t.pid, [notDriver, driver]);
    const other = cloneTree(top);
    preOrderScopes(top, (s) => (s.layer = mapLayer(s.layer!, false)));
    preOrderScopes(other, (s) => (s.layer = mapLayer(s.layer!, true)));
    Settled.settle(top, t.pid, [notDriver]);
    Settled.settle(other, t.pid, [driver]);
  }

  private thread(r: MarkRow, line: number): ThreadState {
    // Rows of one thread come in bursts: most rows skip the lookup.
    const last = this.lastThread;
    let t = last && last.pid === r.pid && last.run === this.run.index ? last : this.run.threads.get(r.pid);
    if (!t) {
      t = new ThreadState(r.pid, '', false, this.run.index);
      t.firstLine = line;
      t.task = ownString(r.task.trim());
      this.run.threads.set(r.pid, t);
    }
    t.lastLine = line;
    this.lastThread = t;
    return t;
  }

  private end(t: ThreadState, r: MarkRow, line: number, why: 'E' | 'SW'): Scope | undefined {
    const node = t.stack.pop();
    if (node && this.summaryOnly) this.leave(t, node);
    if (!node) {
      const col = r.markCol;
      t.problems.push({ range: range(line, col, col + (why === 'E' ? r.mark.length : tagRange(r.mark)[1])), severity: 'error', code: 'nnapi.unmatched-end',
        message: why === 'E'
          ? `this E closes nothing: thread ${t.pid} has no open scope here. Check that the trace includes the application's full lifecycle (the capture may have started inside a traced function).`
          : `[SW] switches phase by closing the current scope, but thread ${t.pid} has no open scope here.` });
      return undefined;
    }
    node.end = r.time;
    node.endLine = line;
    const real = node.kind === 'dummy' ? node.origin : node;
    if (real) {
      if (!this.summaryOnly) this.closed.set(line, real);
      if (node !== real) real.functionEndLine = line;
    }
    if (node.kind !== 'dummy') {
      // Rules §3: the E of an LA warm-up/benchmark scope pops the application phase. (The Python
      // reference compares a method to strings here and never pops; see README.)
      if (node.layer === 'LA' && (node.phaseTag === 'PWU' || node.phaseTag === 'PBM')) this.app.pop();
      if (TIMED_FUNCTIONS.has(node.fn)) t.addBeginEnd(node.appPhase, node.fn, node.start * 1000, node.end * 1000);
    }
    if (this.summaryOnly) {
      if (!t.stack.length) this.settle(t, node);
      else {
        const parent = t.effective[t.effective.length - 1];
        const kids = node.parent?.children;
        if (parent && kids && kids[kids.length - 1] === node && settlesAlone(node, parent)) {
          // Final already (settle.ts): its numbers and problems are filed, and it is let go.
          kids.pop();
          settleAlone(node, parent, t.pid, t.openPe, (t.settled ??= [new Settled(), new Settled()]));
        }
      }
    }
    return node;
  }

  private begin(t: ThreadState, r: MarkRow, line: number): void {
    const bm = readBeginMark(r.mark);
    if (bm.problem) {
      const [a, b] = tagRange(r.mark);
      t.problems.push({ range: range(line, r.markCol + a, r.markCol + b), severity: bm.problem.severity, code: bm.problem.code, message: bm.problem.message });
    }
    const time = r.time;
    const app = this.app;
    if (bm.switchPhase) {
      const closedNode = this.end(t, r, line, 'SW');
      if (closedNode) {
        const origin = closedNode.kind === 'dummy' ? closedNode.origin : closedNode;
        const dummy = new Scope('dummy', time, null, null, app.current(), false, line, '', '', origin);
        t.current.add(dummy);
        t.stack.push(dummy);
        if (this.summaryOnly) this.enter(t, dummy);
      }
    }
    const layer = bm.layer;
    const phase = bm.phase;
    if (layer === 'LA' && (phase === 'PWU' || phase === 'PBM')) app.push(phase);
    if (layer === 'LA' && phase === 'PE') t.laPeCounts.set(app.current(), (t.laPeCounts.get(app.current()) ?? 0) + 1);
    // The layer is mapped (CPU vs driver) in `finish`, once the driver processes are known.
    const s = new Scope('scope', time, layer, phase, app.current(), bm.subtract, line, bm.text, bm.fn);
    s.markCol = r.markCol;
    s.thread = t;
    let up: Scope | null = t.current;
    while (up && up.kind === 'dummy') up = up.parent;
    s.rawParent = up && up.kind === 'scope' ? up : null;
    if (this.summaryOnly) this.enter(t, s);
    t.current.add(s);
    t.stack.push(s);
    if (this.summaryOnly) return;
    t.scopes.push(s);
    this.opened.set(line, s);
  }
}

/** Each real scope of a tree (the ones whose layer the driver mapping touches). */
function preOrderScopes(top: Scope, visit: (s: Scope) => void): void {
  preOrder(top, (s) => {
    if (s.kind === 'scope') visit(s);
  });
}

/** In a driver process `LC` becomes `LD`; in any other `LD` becomes `LC` (§3). */
function mapLayer(layer: string, isDriver: boolean): string {
  // Most layers hold neither code: keep the very string (a new one per scope costs memory and GC).
  if (isDriver) return layer.includes('LC') ? layer.replaceAll('LC', 'LD') : layer;
  return layer.includes('LD') ? layer.replaceAll('LD', 'LC') : layer;
}

/**
 * A run is complete when no tracked thread has an open scope (the reference prints no numbers
 * otherwise). Open scopes are reported, then closed at the run's last timestamp so the nesting of
 * the rest can still be checked.
 */
function closeRun(run: Run, t: ThreadState, diagnostics: Diagnostic[]): void {
  if (!t.stack.length) return;
  run.complete = false;
  for (const s of t.stack) {
    const real = s.kind === 'dummy' ? s.origin : s;
    if (real) {
      const [a, b] = tagRange(real.mark);
      const col = real.markCol;
      diagnostics.push({ range: range(real.line, col + a, col + b), severity: 'error', code: 'nnapi.unclosed-begin',
        message: `${quote(real.fn || real.mark)} (${quote(`${real.layer}_${real.phaseTag}`)}) on thread ${t.pid} is still open at the end of ${run.startingMark ? `the run started by ${quote(run.startingMark)}` : 'the trace'}: no E closes it, so the run gets no statistics (reference: 'Incomplete trace').` });
    }
    s.end = run.lastTime;
    s.endLine = -1;
  }
  t.stack.length = 0;
}
