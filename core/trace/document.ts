import type { Diagnostic } from '../common/diagnostic';
import { spliceLines, splitLines, type LineEdit } from '../common/lines';
import { finalizeDiagnostics, type DiagnosticSettings } from '../common/settings';
import { TraceChecker } from './checker';
import { TraceChecks } from './incrementalChecks';
import { TraceIndex } from './index';
import type { TraceLine } from './line';
import { parseTraceLine } from './parseLine';

/** What follows the lines through edits: the per-id checks and the index. */
interface Tracker {
  edited(lines: readonly TraceLine[], start: number, end: number, newCount: number, old: readonly TraceLine[]): void;
}

/** A line of an edit not read yet: no event, so it is in no check. */
const PENDING: TraceLine = Object.freeze({ ...parseTraceLine(''), text: '' });

/** One edit the per-id checks have not seen yet (see `TraceDocument.lag`). */
interface LaggingEdit {
  start: number;
  end: number;
  newCount: number;
  old: readonly TraceLine[];
}

/**
 * A trace held in the editor: one parsed record per line. Edits re-parse only the lines they
 * touched. The cross-line checks of a document only read are one pass (`TraceChecker`); once it
 * is edited they are kept per id (`TraceChecks`, 3–7 times the cost to build) and an
 * edit re-checks only the ids its lines held and hold. The index (ids → lines, the outline's
 * commands) is built on first use or first edit and then updated per edit the same way.
 *
 * What requests read (the lines and the index) is updated at once; the checks only when
 * diagnostics are asked for (`prepare`, `allDiagnostics`), so a hover after an edit never waits
 * on validation, and their first build can run in slices between requests.
 */
export class TraceDocument {
  private _index: TraceIndex | undefined;
  private _diagnostics: Diagnostic[] | undefined;
  private checks: TraceChecks | undefined;
  /** The last update's edit when the checks have not seen it yet (at most one: a second update first catches up). */
  private lag: LaggingEdit | undefined;
  private edited = false;
  /** Counts the updates: what is derived from the whole text (the hover's metrics) is keyed by it. */
  revision = 0;

  private constructor(public lines: TraceLine[]) {}

  static parse(text: string): TraceDocument {
    return new TraceDocument(splitLines(text).map(parseTraceLine));
  }

  /** `lineText(i)` reads line `i` of the new version. */
  update(edits: readonly LineEdit[], lineText: (i: number) => string): this {
    // The checks must see the lines they were built on: a build cut short, or an edit they
    // have not seen, is finished before the lines change again.
    this.catchUp();
    // The first edit builds the index (once, O(file)); from then on it is kept up to date like
    // the checks, so no request after an edit rebuilds anything.
    const first = !this._index;
    if (edits.length === 1 && (this._index || this.checks)) {
      const e = edits[0];
      const old = this.lines.slice(e.start, e.end);
      this.splice(e, lineText);
      this._index?.edited(this.lines, e.start, e.end, e.newCount, old);
      if (this.checks) this.lag = { start: e.start, end: e.end, newCount: e.newCount, old };
    } else if (this._index || this.checks) {
      // Several edits at once (multiple cursors): each is applied to the trackers in turn with
      // its new lines pending (they are known only in the final text), then the pending lines
      // are read and replaced one for one.
      const trackers: Tracker[] = [];
      if (this.checks) trackers.push(this.checks);
      if (this._index) trackers.push(this._index);
      for (const e of edits) {
        const old = this.lines.slice(e.start, e.end);
        const { items } = spliceLines(this.lines, [e]);
        for (let i = e.start; i < e.start + e.newCount; i++) items[i] = PENDING;
        this.lines = items as TraceLine[];
        for (const t of trackers) t.edited(this.lines, e.start, e.end, e.newCount, old);
      }
      for (let i = 0; i < this.lines.length; i++) {
        if (this.lines[i] !== PENDING) continue;
        this.lines[i] = parseTraceLine(lineText(i));
        for (const t of trackers) t.edited(this.lines, i, i + 1, 1, [PENDING]);
      }
    } else {
      const { items, todo } = spliceLines(this.lines, edits);
      for (const i of todo) items[i] = parseTraceLine(lineText(i));
      this.lines = items as TraceLine[];
    }
    this.edited = true;
    this.revision++;
    if (first) this._index = new TraceIndex(this.lines);
    this._diagnostics = undefined;
    return this;
  }

  /**
   * One edit's lines parsed into place. A few lines are spliced into the array itself: a copy
   * of a 1M-line array per keystroke is 8 MB of garbage, and the collections it brings land on
   * whichever request comes next.
   */
  private splice(e: LineEdit, lineText: (i: number) => string): void {
    if (e.newCount > 1000) {
      const { items, todo } = spliceLines(this.lines, [e]);
      for (const i of todo) items[i] = parseTraceLine(lineText(i));
      this.lines = items as TraceLine[];
      return;
    }
    const fresh: TraceLine[] = [];
    for (let i = e.start; i < e.start + e.newCount; i++) fresh.push(parseTraceLine(lineText(i)));
    if (fresh.length === e.end - e.start) for (let k = 0; k < fresh.length; k++) this.lines[e.start + k] = fresh[k];
    else this.lines.splice(e.start, e.end - e.start, ...fresh);
  }

  /** Brings the checks up to date with the lines: the build's rest, then the edit they lag by. */
  private catchUp(): void {
    if (!this.checks) return;
    this.checks.advance(() => true);
    const e = this.lag;
    this.lag = undefined;
    if (e) this.checks.edited(this.lines, e.start, e.end, e.newCount, e.old);
  }

  /**
   * Work towards the diagnostics while `more()` says so; true when `allDiagnostics` is then
   * cheap. The first build of the checks and the renumbering after an inserted or deleted line
   * (every id) are cut into slices.
   */
  prepare(more: () => boolean): boolean {
    if (this._diagnostics || !this.edited) return true;
    return this.checked(() => {
      const c = (this.checks ??= new TraceChecks(this.lines, true));
      if (!c.advance(more)) return false;
      const e = this.lag;
      this.lag = undefined;
      if (e) c.begin(this.lines, e.start, e.end, e.newCount, e.old);
      return c.advance(more);
    });
  }

  /** All diagnostics, unsorted and uncapped. */
  allDiagnostics(): Diagnostic[] {
    this._diagnostics ??= this.edited
      ? this.checked(() => {
        this.checks ??= new TraceChecks(this.lines);
        this.catchUp();
        return this.checks.diagnostics();
      })
      : onePass(this.lines);
    return this._diagnostics;
  }

  /** Work on the checks; when it throws they are dropped (half updated), to be built again from the lines. */
  private checked<T>(f: () => T): T {
    try {
      return f();
    } catch (err) {
      this.checks = undefined;
      this.lag = undefined;
      throw err;
    }
  }

  diagnostics(settings: DiagnosticSettings): Diagnostic[] {
    return finalizeDiagnostics(this.allDiagnostics(), settings);
  }

  get index(): TraceIndex {
    return (this._index ??= new TraceIndex(this.lines));
  }
}

function onePass(lines: readonly TraceLine[]): Diagnostic[] {
  const c = new TraceChecker((i) => lines[i]?.text);
  for (let i = 0; i < lines.length; i++) c.add(lines[i], i);
  return c.finish();
}
