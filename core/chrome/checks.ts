import { BoundedDiagnostics } from '../common/boundedDiagnostics';
import { clip } from '../common/clip';
import type { Diagnostic, Position, Range, Severity } from '../common/diagnostic';
import { escapeControl } from '../common/escape';
import { finalizeDiagnostics, type DiagnosticSettings } from '../common/settings';
import type { CheckerOptions, ChunkChecker, LineChecker } from '../formatDescriptor';
import { INT, NUM, STR } from '../json/flatObject';
import { EXPONENT, NEGATIVE, objectFieldsReader } from '../json/objectFields';
import { eventId, eventRange, fieldRange, fieldText, wholeRange, idKey, KNOWN_PH, outOfRange, pathRange, positionIn, readNumber, str } from './event';
import { FlowIndex, FlowPairs, type FlowRole } from './flows';
import { eachFlow, PART_PREFIX, PartLog, shiftDiagnostic, shiftPosition, shiftRange, shiftRaw, type ChromePart, type PartForm } from './parts';
import { ChromeReader } from './reader';
import type { RawEvent } from './stream';

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character < b.character);

/** Text from the file in a message: one line, cut, controls shown as escapes. */
function q(v: unknown, max = 40): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return `"${escapeControl(s.length > max ? `${s.slice(0, max)}…` : s)}"`;
}

/** The message for a number beyond a double's range, quoting it as written (JSON.parse made it Infinity). */
function tooLarge(key: string, raw: RawEvent): string {
  return `"${key}" ${escapeControl(clip(fieldText(raw, key) ?? '', 40))} is out of range: beyond the largest number a double holds (about 1.8e308), JSON readers make it Infinity or null`;
}

// V8's JSON.parse messages end "in JSON at position N" (or "(line L column C)" in newer versions).
const AT_POSITION = / in JSON at position \d{1,10}(?: \(line \d{1,10} column \d{1,10}\))?$/;

/** Where JSON.parse stopped, as a one-character range, else the event's first line. */
function errorRange(raw: RawEvent, message: string): Range {
  const m = / at position (\d{1,10})/.exec(message);
  if (!m) return eventRange(raw);
  const k = Math.min(Number(m[1]), raw.text.length);
  return { start: positionIn(raw, k), end: positionIn(raw, Math.min(k + 1, raw.text.length)) };
}

/** The fields the checks of most events read (`ChromeChecker.inPlace`), by id. */
const PH = 0, TS = 1, DUR = 2, CAT = 3, ID = 4, BIND_ID = 5;
const FIELDS = objectFieldsReader(['ph', 'ts', 'dur', 'cat', 'id', 'bind_id']);
const X = 88, S = 115, T = 116, F = 102;
/** The phases whose events the checks read in place: those checked for their time alone, and X and the flows. */
const IN_PLACE = new Uint8Array(128);
for (const ph of KNOWN_PH) if (!'MBEbeC'.includes(ph)) IN_PLACE[ph.charCodeAt(0)] = 1;

/** The key of the bind_id flows: apart from every category. */
const BIND = '\u0001bind';

/**
 * Why a flow event has no partner. Profilers record a window: a launch just before the window ends
 * has its kernel after it, a kernel just after it starts had its launch before, so those flows are
 * cut; Chrome and Perfetto draw no arrow for them either.
 */
function orphanMessage(key: string, role: FlowRole): string {
  const bind = key.startsWith(BIND);
  const id = q(key.slice(key.indexOf('\u0000') + 1));
  if (role === 'start') {
    return bind
      ? `Slice with "flow_out" and bind_id ${id} has no slice with "flow_in" and that bind_id at or after its time: no arrow is drawn (if the trace stopped before the flow's end, the profiling window cut it)`
      : `Flow start with id ${id} has no "t" or "f" with the same category and id at or after its time: no arrow is drawn (if the trace stopped before the flow's end, the profiling window cut it)`;
  }
  return bind
    ? `Slice with "flow_in" and bind_id ${id} has no slice with "flow_out" and that bind_id at or before its time: no arrow is drawn (if the flow began before the trace started, the profiling window cut it)`
    : `Flow ${role === 'end' ? 'end' : 'step'} with id ${id} has no "s" with the same category and id at or before its time: no arrow is drawn (if the flow began before the trace started, the profiling window cut it)`;
}

interface Open {
  name: string;
  range: Range;
}

/**
 * The checks of a Chrome Trace Event JSON file (README "Chrome Trace Event JSON", table of codes),
 * fed line by line through the streaming reader. Pairing state is per thread (B/E), per category
 * and id (async b/e, flows s/t/f), and diagnostics are capped while they are produced.
 */
export class ChromeChecker implements LineChecker {
  private readonly out: BoundedDiagnostics;
  private readonly reader: ChromeReader;
  private readonly stacks = new Map<string, Open[]>();
  private readonly asyncOpen = new Map<string, Open>();
  private readonly flowPairs = new FlowPairs();
  private readonly metaNames = new Map<string, string>();
  /** The flows for navigation, when asked for (the editor; the CLI needs none). */
  readonly flows: FlowIndex | undefined;
  private events = 0;
  private tsStrings = 0;
  /** A part of the document read on its own (`part`): what the whole document's checker decides, kept for it. */
  private readonly log: PartLog | undefined;
  /** Parts merged into this checker (`mergePart`): whether one closed an events array or said a structure problem, and the last one's end. */
  private closedInParts = false;
  private complainedInParts = false;
  private tail: { started: boolean; finished: boolean; stopped: boolean; at: Position } | undefined;

  /**
   * `part`: this checker reads a part of a document that starts at an event of its events array
   * (the text after `PART_PREFIX[part]`), for `mergePart` of the checker of the whole (parts.ts).
   */
  constructor(opts: CheckerOptions & { flows?: boolean; part?: PartForm } = {}) {
    this.out = new BoundedDiagnostics(opts.maxProblems);
    this.flows = opts.flows ? new FlowIndex() : undefined;
    this.log = opts.part ? new PartLog(opts.part) : undefined;
    this.reader = new ChromeReader({
      event: (o, raw) => this.event(o, raw),
      bad: (kind, raw, message) => this.push(kind === 'invalid-json' ? errorRange(raw, message) : eventRange(raw), 'error', kind === 'invalid-json' ? 'chrome.invalid-json' : kind === 'not-object' ? 'chrome.not-object' : 'chrome.event-too-large',
        kind === 'invalid-json' ? `Invalid JSON in this event: ${escapeControl(message.replace(AT_POSITION, '').slice(0, 200))}`
          : kind === 'not-object' ? `Each element of traceEvents must be an event object; this one is ${message}`
            : 'This event is over 16 MB: it is not read'),
      broken: (message, line, character) => {
        const d: Diagnostic = { range: { start: { line, character }, end: { line, character: character + 1 } }, severity: 'error', code: 'chrome.not-trace', message: `Not a Chrome trace here: ${message}` };
        // Said once for the whole document: a part's is the whole's if no part before it said one.
        if (this.log) this.log.broken ??= d;
        else this.out.push(d);
      },
      // The editor's flow index wants each flow's whole range: its events take the full way.
      inPlace: this.flows ? undefined : (t, i, limit, base) => this.inPlace(t, i, limit, base),
    });
    if (opts.part) this.reader.addText(PART_PREFIX[opts.part]);
  }

  add(line: string, lineNo: number): void {
    this.reader.addLine(line, lineNo);
  }

  /** The document in pieces of any size (`ChromeEventStream.feedText`): most events are read in place. */
  addText(piece: string): void {
    this.reader.addText(piece);
  }

  /** After the last piece; `cutOff`: the text was cut (a truncated .gz). Then `finish` or `finishCapped`. */
  endText(cutOff = false): void {
    this.reader.endText(cutOff);
  }

  /**
   * An event read where it stands, without JSON.parse: only one that the checks below would find
   * nothing wrong with and whose every field they read is plain (a known phase other than M, B/E,
   * b/e and C; a numeric ts; for X a dur of zero or more and no bind_id; for a flow a string cat
   * and a plain id). Anything else, and text the tokenizer is not sure of, is declined: the event
   * then takes the full way (JSON.parse, `event`), so every diagnostic is the one it always was.
   */
  private inPlace(t: string, i: number, limit: number, base: number): number {
    const r = FIELDS;
    const end = r.read(t, i, limit);
    if (end < 0) return -1;
    // An empty object is nothing (ChromeReader).
    if (r.fields === 0) return end;
    const { kind, start, flags } = r;
    if (kind[PH] !== STR || flags[PH] !== 0 || r.end[PH] - start[PH] !== 3) return -1;
    const ph = t.charCodeAt(start[PH] + 1);
    if (ph >= 128 || IN_PLACE[ph] === 0) return -1;
    if ((kind[TS] !== INT && kind[TS] !== NUM) || !Number.isFinite(r.num[TS])) return -1;
    if (ph === X) {
      if ((kind[DUR] !== INT && kind[DUR] !== NUM) || !(r.num[DUR] >= 0) || !Number.isFinite(r.num[DUR]) || kind[BIND_ID] !== 0) return -1;
    } else if (ph === S || ph === T || ph === F) {
      const key = this.flowKey(t);
      if (key === undefined) return -1;
      const s = this.reader.stream;
      const range = { start: s.position(base + start[PH]), end: s.position(base + r.end[PH]) };
      this.addFlow(key, ph === S ? 'start' : ph === T ? 'step' : 'end', r.num[TS], range);
    }
    this.events++;
    return end;
  }

  /** A flow's key as `flow` makes it, from a string (or absent) cat and a plain id; undefined for any other. */
  private flowKey(t: string): string | undefined {
    const { kind, start, end, flags } = FIELDS;
    let cat = '';
    if (kind[CAT] === STR && flags[CAT] === 0) cat = t.slice(start[CAT] + 1, end[CAT] - 1);
    else if (kind[CAT] !== 0) return undefined;
    let id: string;
    if (kind[ID] === STR && flags[ID] === 0) id = t.slice(start[ID] + 1, end[ID] - 1);
    // An integer as String(number) writes it: up to 15 digits, no exponent, not -0.
    else if (kind[ID] === INT && (flags[ID] & EXPONENT) === 0 && end[ID] - start[ID] <= 15 && !((flags[ID] & NEGATIVE) !== 0 && FIELDS.num[ID] === 0)) id = t.slice(start[ID], end[ID]);
    else return undefined;
    return `${cat}\u0000${id}`;
  }

  /** A flow event to pair; when this checker reads a part, also kept for the whole's (`mergePart`). */
  private addFlow(key: string, role: FlowRole, ts: number, range: Range): void {
    this.log?.flow(key, role, ts, range);
    this.flowPairs.add(key, role, ts, range);
  }

  /**
   * After the part's last piece: what the whole document's checker needs of it (`mergePart`).
   * `last`: the part ends the document; else whether it ends between two events is said.
   */
  partResult(last: boolean): ChromePart {
    const log = this.log!;
    const s = this.reader.stream;
    this.reader.endText(false);
    const endAt = s.endPosition();
    const boundary = last ? undefined : s.atEventBoundary();
    const splitter = s.splitterEnd();
    // The last part's reader hands over an event the end cut (reported as this part's problem).
    if (last) s.end();
    return {
      form: log.form, prefix: PART_PREFIX[log.form].length, endAt, boundary, found: this.out.all(), dropped: this.out.dropped, droppedError: this.out.droppedError,
      broken: log.broken, replay: log.replay, flows: log.flows(), flowState: this.flowPairs.state(), overflow: log.overflow, tsStrings: this.tsStrings, firstTsString: this.firstTsString,
      arrayClosed: s.arrayClosed, last: last ? splitter : undefined,
    };
  }

  /** After the text up to a part's start (`endText`): the form when it ends between two events (a part may start there). */
  atEventBoundary(): PartForm | undefined {
    this.reader.endText(false);
    return this.reader.stream.atEventBoundary();
  }

  /** Where the text read so far ends: the next part's start. */
  endPosition(): Position {
    return this.reader.stream.endPosition();
  }

  /**
   * A part read by another checker (`partResult`), starting at `at`, merged in document order: its
   * problems, and what depends on the events before it replayed here — B/E, b/e, M events and flow
   * events in its order, the first string "ts", the one structure problem said.
   */
  mergePart(p: ChromePart, at: Position): void {
    for (const d of p.found) this.out.push(shiftDiagnostic(d, at, p.prefix));
    this.out.dropped += p.dropped;
    if (p.droppedError) this.out.droppedError = true;
    if (p.broken && !this.complainedInParts && !this.reader.stream.hasComplained) {
      this.complainedInParts = true;
      this.out.push(shiftDiagnostic(p.broken, at, p.prefix));
    }
    const hadTsString = this.tsStrings > 0;
    for (const raw of p.replay) this.event(JSON.parse(raw.text) as Record<string, unknown>, shiftRaw(raw, at, p.prefix));
    this.flowPairs.merge(p.flowState, (r) => shiftRange(r, at, p.prefix),
      (only) => eachFlow(p.flows, at, p.prefix, only, (key, role, ts, range) => this.flowPairs.add(key, role, ts, range)));
    if (p.tsStrings > 0) {
      // The first in the document: the part's own, or a replayed event's before it.
      const first = shiftRange(p.firstTsString!, at, p.prefix);
      if (!hadTsString && (!this.firstTsString || before(first.start, this.firstTsString.start))) this.firstTsString = first;
      this.tsStrings += p.tsStrings;
    }
    if (p.arrayClosed) this.closedInParts = true;
    if (p.last) this.tail = { ...p.last, at: shiftPosition(p.endAt, at, p.prefix) };
  }

  finish(): Diagnostic[] {
    const s = this.reader.stream;
    const tail = this.tail;
    let end: { truncated: boolean; unfinished: boolean };
    let at: Position;
    if (tail) {
      // The end was read by the last part, in the events array this reader opened (a part starts in it).
      const truncated = !s.arrayClosed && !this.closedInParts;
      end = { truncated, unfinished: tail.started && !tail.finished && !tail.stopped && !truncated };
      at = tail.at;
    } else {
      end = s.end();
      at = s.endPosition();
    }
    const endRange = { start: at, end: at };
    if (end.truncated) {
      this.push(endRange, 'information', 'chrome.truncated', 'The events array has no closing "]" (the file was cut off, or written by a tracer that never closes it): Chrome and Perfetto read it as it is');
    } else if (s.form === 'object' && !s.sawTraceEvents) {
      this.push({ start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, 'error', 'chrome.not-trace', 'Not a Chrome trace: the top-level object has no "traceEvents" array');
    } else if (end.unfinished) {
      this.push(endRange, 'error', 'chrome.not-trace', 'The JSON document ends before it is complete');
    }
    if (this.tsStrings > 0 && this.firstTsString) {
      this.push(this.firstTsString, 'information', 'chrome.ts-string', `"ts" is a string holding a number (${this.tsStrings} event${this.tsStrings === 1 ? '' : 's'}): it is read as that number`);
    }
    for (const [key, stack] of this.stacks) {
      const thread = key.split('\u0000');
      for (const b of stack) this.push(b.range, 'warning', 'chrome.unclosed-begin', `B ${q(b.name)} on pid ${q(thread[0])} tid ${q(thread[1])} is never closed by an E: it runs to the end of the trace`);
    }
    for (const [key, b] of this.asyncOpen) this.push(b.range, 'error', 'chrome.unpaired-async', `Async begin ${q(b.name)} (id ${q(key.split('\u0000')[1])}) has no "e" with the same category and id`);
    for (const o of this.flowPairs.orphans()) this.push(o.range, 'warning', 'chrome.unpaired-flow', orphanMessage(o.key, o.role));
    this.stacks.clear();
    this.asyncOpen.clear();
    return this.out.all();
  }

  /** The shown problems (capped with the summary) and whether any problem, shown or not, is an error; `extra` as `LineChecker.finishCapped`. */
  finishCapped(settings: DiagnosticSettings, extra: readonly Diagnostic[] = []): { diagnostics: Diagnostic[]; hasError: boolean } {
    const all = this.finish().concat(extra);
    return { diagnostics: finalizeDiagnostics(all, settings, this.out.dropped), hasError: this.out.droppedError || all.some((d) => d.severity === 'error') };
  }

  dropped(): { count: number; hasError: boolean } {
    return { count: this.out.dropped, hasError: this.out.droppedError };
  }

  private firstTsString: Range | undefined;

  private push(range: Range, severity: Severity, code: string, message: string): void {
    this.out.push({ range, severity, code, message });
  }

  private event(o: Record<string, unknown>, raw: RawEvent): void {
    this.events++;
    const ph = o.ph;
    // Checked against the events before them: by the whole document's checker, in their order.
    if (this.log && (ph === 'B' || ph === 'E' || ph === 'b' || ph === 'e' || ph === 'M')) {
      this.log.keep(raw);
      return;
    }
    if (typeof ph !== 'string' || !KNOWN_PH.has(ph)) {
      this.push(fieldRange(raw, 'ph'), 'error', 'chrome.unknown-ph', ph === undefined ? 'This event has no "ph" (its phase: X, B, E, i, C, M...)' : `Unknown "ph" ${q(ph)}: the Trace Event Format has B, E, X, i, I, C, b, n, e, s, t, f, M, and the object and sample events`);
      return;
    }
    if (ph === 'M') return this.metadata(o, raw);
    const ts = readNumber(o.ts);
    if (!ts && outOfRange(o.ts)) {
      this.push(fieldRange(raw, 'ts'), 'error', 'chrome.number-out-of-range', tooLarge('ts', raw));
      return;
    }
    if (!ts) {
      this.push(o.ts === undefined ? eventRange(raw) : fieldRange(raw, 'ts'), 'error', 'chrome.ts-not-number', o.ts === undefined ? `This ${ph} event has no "ts"` : `"ts" must be a number (µs), got ${q(o.ts)}`);
      return;
    }
    if (ts.fromString && this.tsStrings++ === 0) this.firstTsString = fieldRange(raw, 'ts');
    const thread = `${idKey(o.pid)}\u0000${idKey(o.tid)}`;
    const name = str(o.name);
    switch (ph) {
      case 'X': {
        const dur = o.dur ?? o.tdur;
        if (dur === undefined) this.push(fieldRange(raw, 'ph'), 'error', 'chrome.missing-dur', `X event ${q(name)} has no "dur": a complete event needs its duration`);
        else {
          const d = readNumber(dur);
          if (!d && outOfRange(dur)) this.push(fieldRange(raw, o.dur !== undefined ? 'dur' : 'tdur'), 'error', 'chrome.number-out-of-range', tooLarge(o.dur !== undefined ? 'dur' : 'tdur', raw));
          else if (!d) this.push(fieldRange(raw, o.dur !== undefined ? 'dur' : 'tdur'), 'error', 'chrome.missing-dur', `"dur" must be a number (µs), got ${q(dur)}`);
          else if (d.n < 0) this.push(fieldRange(raw, o.dur !== undefined ? 'dur' : 'tdur'), 'error', 'chrome.negative-dur', `"dur" is negative (${d.n}): X event ${q(name)} would end before it starts`);
        }
        if (o.bind_id !== undefined) this.boundFlow(o, raw, ts.n);
        return;
      }
      case 'B': {
        let stack = this.stacks.get(thread);
        if (!stack) this.stacks.set(thread, (stack = []));
        stack.push({ name, range: fieldRange(raw, 'ph') });
        return;
      }
      case 'E': return this.end(o, raw, thread, name);
      case 'b': case 'e': return this.async(o, raw, ph, name);
      case 's': case 't': case 'f': return this.flow(o, raw, ph, ts.n);
      case 'C': return this.counter(o, raw, name);
    }
  }

  private end(o: Record<string, unknown>, raw: RawEvent, thread: string, name: string): void {
    const stack = this.stacks.get(thread);
    if (!stack?.length) {
      this.push(fieldRange(raw, 'ph'), 'error', 'chrome.unmatched-end', `E${name ? ` ${q(name)}` : ''} has no open B on pid ${q(idKey(o.pid))} tid ${q(idKey(o.tid))}`);
      return;
    }
    const top = stack[stack.length - 1];
    // An E closes the innermost B (as Chrome reads it); naming an outer one means they end out of order.
    if (name && top.name && name !== top.name && stack.some((b) => b.name === name)) {
      this.push(fieldRange(raw, 'name'), 'error', 'chrome.misnested', `E ${q(name)} ends an outer B while ${q(top.name)} (opened inside it) is still open: B/E pairs must nest; Chrome closes ${q(top.name)} here`);
    }
    stack.pop();
  }

  private async(o: Record<string, unknown>, raw: RawEvent, ph: string, name: string): void {
    const id = eventId(o);
    const key = `${str(o.cat)}\u0000${id ?? ''}\u0000${name}`;
    if (ph === 'b') {
      this.asyncOpen.set(key, { name, range: fieldRange(raw, 'ph') });
      return;
    }
    if (!this.asyncOpen.delete(key)) this.push(fieldRange(raw, 'ph'), 'error', 'chrome.unpaired-async', `Async end ${q(name)} (id ${q(id ?? '')}) has no "b" with the same category, id and name before it`);
  }

  private flow(o: Record<string, unknown>, raw: RawEvent, ph: string, ts: number): void {
    const key = `${str(o.cat)}\u0000${eventId(o) ?? ''}`;
    this.flows?.add(key, wholeRange(raw), ph === 's');
    this.addFlow(key, ph === 's' ? 'start' : ph === 't' ? 'step' : 'end', ts, fieldRange(raw, 'ph'));
  }

  /** A flow of the newer form: slices carrying `bind_id` with `flow_out` (its start) and `flow_in` (its end). */
  private boundFlow(o: Record<string, unknown>, raw: RawEvent, ts: number): void {
    const key = `${BIND}\u0000${idKey(o.bind_id)}`;
    const role: FlowRole | undefined = o.flow_in === true ? (o.flow_out === true ? 'step' : 'end') : o.flow_out === true ? 'start' : undefined;
    if (!role) return;
    this.flows?.add(key, wholeRange(raw), role === 'start');
    this.addFlow(key, role, ts, fieldRange(raw, 'bind_id'));
  }

  private counter(o: Record<string, unknown>, raw: RawEvent, name: string): void {
    const args = o.args;
    if (typeof args !== 'object' || args === null) {
      this.push(fieldRange(raw, 'ph'), 'error', 'chrome.counter-not-numeric', `Counter ${q(name)} has no "args" object of numbers`);
      return;
    }
    for (const [k, v] of Object.entries(args)) {
      if (typeof v === 'number') continue;
      this.push(pathRange(raw, ['args', k]), 'error', 'chrome.counter-not-numeric', `Counter ${q(name)}: args.${escapeControl(k.slice(0, 40))} is ${q(v)}, not a number: it is not drawn`);
      return;
    }
  }

  private metadata(o: Record<string, unknown>, raw: RawEvent): void {
    const name = str(o.name);
    if (name !== 'process_name' && name !== 'thread_name') return;
    const args = o.args as Record<string, unknown> | undefined;
    const value = str(args?.name);
    const key = `${name}\u0000${idKey(o.pid)}\u0000${name === 'thread_name' ? idKey(o.tid) : ''}`;
    const before = this.metaNames.get(key);
    if (before === undefined) this.metaNames.set(key, value);
    else if (before !== value) {
      this.push(pathRange(raw, ['args', 'name']), 'warning', 'chrome.duplicate-metadata', `${name} of pid ${q(idKey(o.pid))}${name === 'thread_name' ? ` tid ${q(idKey(o.tid))}` : ''} is given again as ${q(value)}; it was ${q(before)}: the last one wins`);
    }
  }
}

/** `check` of a Chrome trace read in pieces (cli/check.ts `checkInPieces`), not lines. */
export function chromeChunkChecker(opts: CheckerOptions = {}): ChunkChecker {
  const c = new ChromeChecker(opts);
  return {
    feed: (piece) => c.addText(piece),
    finish: (settings, cutOff) => {
      c.endText(cutOff);
      return c.finishCapped(settings);
    },
  };
}
