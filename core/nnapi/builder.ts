import type { Diagnostic } from '../common/diagnostic';
import { range } from '../common/diagnostic';
import type { Collector } from './collect';
import { LineMap } from './lineMap';
import { readBeginMark, tagRange } from './mark';
import type { MarkRow } from './row';
import { Scope } from './scope';

/** Functions whose begin/end times feed the special cases of §6 (runtime and driver execution, counts). */
export const TIMED_FUNCTIONS = new Set([
  'ANeuralNetworksExecution_startCompute', 'ANeuralNetworksEvent_wait',
  'ANeuralNetworksExecution_create', 'ANeuralNetworksExecution_free', 'ANeuralNetworksEvent_create', 'ANeuralNetworksEvent_free',
  'ANeuralNetworksExecution_setInput', 'ANeuralNetworksExecution_setOutput',
  'ANeuralNetworksExecution_setInputFromMemory', 'ANeuralNetworksExecution_setOutputFromMemory',
  'HIDL::IPreparedModel::execute::server', 'HIDL::IExecutionCallback::notify::client',
]);

/** One tracked thread within one run. */
export class ThreadState {
  readonly root = new Scope('root', Number.NaN, null, null, 'PO', false, -1, '', '');
  readonly stack: Scope[] = [];
  /** `appPhase::function` → [begin ms, end ms] in the order the scopes closed. */
  readonly beginsEnds = new Map<string, [number, number][]>();
  readonly laPeCounts = new Map<string, number>();
  /** Real scopes (not dummies) in the order they opened. */
  readonly scopes: Scope[] = [];
  firstLine = -1;
  lastLine = -1;
  task = '';
  /** Filled by the analysis: `appPhase_layer_phase` → ms. */
  stats = new Map<string, number>();

  constructor(readonly pid: string, readonly tgid: string, readonly isDriver: boolean, readonly run: number) {}

  get current(): Scope {
    return this.stack.length ? this.stack[this.stack.length - 1] : this.root;
  }

  begins(appPhase: string, fn: string): number[] {
    return (this.beginsEnds.get(`${appPhase}::${fn}`) ?? []).map((x) => x[0]);
  }
  ends(appPhase: string, fn: string): number[] {
    return (this.beginsEnds.get(`${appPhase}::${fn}`) ?? []).map((x) => x[1]);
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

/** Second pass (rules §2–§3): builds each tracked thread's scope tree, run by run. */
export function buildRuns(c: Collector): Built {
  const diagnostics: Diagnostic[] = [];
  const opened = new LineMap<Scope>();
  const closed = new LineMap<Scope>();
  const runs: Run[] = [];
  let run = new Run(0, '', -1);
  let first = true;
  let app = new AppPhaseStack();

  function thread(r: MarkRow, line: number): ThreadState {
    let t = run.threads.get(r.pid);
    if (!t) {
      const tgid = c.tracked.get(r.pid) ?? '';
      t = new ThreadState(r.pid, tgid, c.driverTgids.has(tgid), run.index);
      t.firstLine = line;
      t.task = r.task.trim();
      run.threads.set(r.pid, t);
    }
    t.lastLine = line;
    return t;
  }

  function end(t: ThreadState, r: MarkRow, line: number, why: string): Scope | undefined {
    const node = t.stack.pop();
    if (!node) {
      const col = r.markCol;
      diagnostics.push({ range: range(line, col, col + (why === 'E' ? r.mark.length : tagRange(r.mark)[1])), severity: 'error', code: 'nnapi.unmatched-end',
        message: why === 'E'
          ? `this E closes nothing: thread ${t.pid} has no open scope here. Check that the trace includes the application's full lifecycle (the capture may have started inside a traced function).`
          : `[SW] switches phase by closing the current scope, but thread ${t.pid} has no open scope here.` });
      return undefined;
    }
    node.end = r.time;
    node.endLine = line;
    const real = node.kind === 'dummy' ? node.origin : node;
    if (real) {
      closed.set(line, real);
      if (node !== real) real.functionEndLine = line;
    }
    if (node.kind === 'dummy') return node;
    // Rules §3: the E of an LA warm-up/benchmark scope pops the application phase. (The Python
    // reference compares a method to strings here and never pops; see README.)
    if (node.layer === 'LA' && (node.phaseTag === 'PWU' || node.phaseTag === 'PBM')) app.pop();
    if (TIMED_FUNCTIONS.has(node.fn)) {
      const key = `${node.appPhase}::${node.fn}`;
      let list = t.beginsEnds.get(key);
      if (!list) t.beginsEnds.set(key, (list = []));
      list.push([node.start * 1000, node.end * 1000]);
    }
    return node;
  }

  function begin(t: ThreadState, r: MarkRow, line: number): void {
    const bm = readBeginMark(r.mark);
    if (bm.problem) {
      const [a, b] = tagRange(r.mark);
      diagnostics.push({ range: range(line, r.markCol + a, r.markCol + b), severity: bm.problem.severity, code: bm.problem.code, message: bm.problem.message });
    }
    const time = r.time;
    if (bm.switchPhase) {
      const closedNode = end(t, r, line, 'SW');
      if (closedNode) {
        const origin = closedNode.kind === 'dummy' ? closedNode.origin : closedNode;
        const dummy = new Scope('dummy', time, null, null, app.current(), false, line, '', '', origin);
        t.current.add(dummy);
        t.stack.push(dummy);
      }
    }
    let layer = bm.layer;
    const phase = bm.phase;
    if (layer === 'LA' && (phase === 'PWU' || phase === 'PBM')) app.push(phase);
    layer = t.isDriver ? layer.replaceAll('LC', 'LD') : layer.replaceAll('LD', 'LC');
    if (layer === 'LA' && phase === 'PE') t.laPeCounts.set(app.current(), (t.laPeCounts.get(app.current()) ?? 0) + 1);
    const s = new Scope('scope', time, layer, phase, app.current(), bm.subtract, line, bm.text, bm.fn);
    s.markCol = r.markCol;
    s.thread = t;
    let up: Scope | undefined = t.current;
    while (up?.kind === 'dummy') up = up.parent ?? undefined;
    s.rawParent = up && up.kind === 'scope' ? up : null;
    t.current.add(s);
    t.stack.push(s);
    t.scopes.push(s);
    opened.set(line, s);
  }

  for (let i = 0; i < c.rows.length; i++) {
    const r = c.rows[i];
    const line = c.lines[i];
    if (!c.tracked.has(r.pid)) continue;
    const mark = r.mark;
    if (mark.includes('[NN_LA_PO]')) {
      if (!first) {
        finishRun(run, diagnostics);
        runs.push(run);
        run = new Run(runs.length, mark, line);
        app = new AppPhaseStack();
      } else {
        run.startingMark = mark;
        run.startLine = line;
      }
      first = false;
    }
    const t = thread(r, line);
    run.lastTime = r.time;
    run.lastLine = line;
    if (mark.charCodeAt(0) === 66 /* B */) begin(t, r, line);
    else end(t, r, line, 'E');
  }
  finishRun(run, diagnostics);
  runs.push(run);
  return { runs, diagnostics, opened, closed };
}

/**
 * A run is complete when no tracked thread has an open scope (the reference prints no numbers
 * otherwise). Open scopes are reported, then closed at the run's last timestamp so the nesting of
 * the rest can still be checked.
 */
function finishRun(run: Run, diagnostics: Diagnostic[]): void {
  for (const t of run.threads.values()) {
    if (!t.stack.length) continue;
    run.complete = false;
    for (const s of t.stack) {
      const real = s.kind === 'dummy' ? s.origin : s;
      if (real) {
        const [a, b] = tagRange(real.mark);
        const col = real.markCol;
        diagnostics.push({ range: range(real.line, col + a, col + b), severity: 'error', code: 'nnapi.unclosed-begin',
          message: `${real.fn || real.mark} (${real.layer}_${real.phaseTag}) on thread ${t.pid} is still open at the end of ${run.startingMark ? `the run started by ${run.startingMark}` : 'the trace'}: no E closes it, so the run gets no statistics (reference: 'Incomplete trace').` });
      }
      s.end = run.lastTime;
      s.endLine = -1;
    }
    t.stack.length = 0;
  }
}
