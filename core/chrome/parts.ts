/**
 * A Chrome trace checked in parts, each by its own checker (the CLI's threads, cli/parallelChrome.ts):
 * a part starts at an event of the events array and is read after a prefix that puts its reader
 * where the whole document's reader is there (in the array). What a part cannot decide alone — B/E
 * and b/e pairs, M names, flows (paired from nothing, and every flow event for the flows the
 * whole's checker has seen), the first string "ts", the one structure problem said, the end of
 * the document — it keeps for the checker of the whole, which merges the parts in document order
 * (`ChromeChecker.mergePart`) and then says what the one pass says.
 *
 * A part is taken only when the text before it ends between two events of the array
 * (`ChromeChecker.atEventBoundary`): where a part starts is a guess from its bytes, and a guess
 * that falls inside an event is found out then, the text after it read by the whole's checker.
 */
import type { Diagnostic, Position, Range } from '../common/diagnostic';
import type { FlowRole, FlowState } from './flows';
import type { RawEvent } from './stream';

/** The text a part's reader reads first, by the document's form: it is then in the events array. */
export const PART_PREFIX = { object: '{"traceEvents":[', array: '[' } as const;
export type PartForm = keyof typeof PART_PREFIX;

/**
 * What a part keeps is bounded: past these it says so (`overflow`) and its result is not used (the
 * text is read again by one checker). A part of tens of MB holds tens of thousands of each.
 */
export const MAX_PART_FLOWS = 2_000_000;
export const MAX_PART_REPLAY = 500_000;
export const MAX_PART_REPLAY_CHARS = 64 << 20;

const ROLES: readonly FlowRole[] = ['start', 'step', 'end'];

/**
 * The flow events of a part, in its order, as columns: one string of the keys one after another
 * with their lengths, and typed arrays (a thread posts them moved, not copied). As objects, the
 * 76k flow events of half a 108 MB PyTorch trace took 269 ms to arrive (v8.deserialize).
 */
export interface PartFlows {
  keys: string;
  keyLength: Int32Array;
  /** Index in ROLES. */
  role: Uint8Array;
  ts: Float64Array;
  /** Start line and character, end line and character, per event. */
  pos: Int32Array;
}

/** The buffers of a part's columns, to be moved to the thread it is posted to. */
export const partBuffers = (p: ChromePart): ArrayBuffer[] =>
  [p.flows.keyLength.buffer, p.flows.role.buffer, p.flows.ts.buffer, p.flows.pos.buffer, ...(p.flowState ? [p.flowState.spans.buffer] : [])] as ArrayBuffer[];

/**
 * Each flow event of `f` (of the flows in `only`, when given), in order, where it stands in the
 * document (the part starting at `at` after `prefix` characters).
 */
export function eachFlow(f: PartFlows, at: Position, prefix: number, only: ReadonlySet<string> | undefined, on: (key: string, role: FlowRole, ts: number, range: Range) => void): void {
  const { keys, keyLength, role, ts, pos } = f;
  const shift = (line: number, character: number): Position => (line === 0 ? { line: at.line, character: at.character + character - prefix } : { line: at.line + line, character });
  for (let i = 0, k = 0; i < keyLength.length; i++) {
    const key = keys.slice(k, (k += keyLength[i]));
    if (only && !only.has(key)) continue;
    const p = 4 * i;
    on(key, ROLES[role[i]], ts[i], { start: shift(pos[p], pos[p + 1]), end: shift(pos[p + 2], pos[p + 3]) });
  }
}

/** What a part's checker posts (`ChromeChecker.partResult`); positions are the part reader's, prefix included. */
export interface ChromePart {
  /** The form the part was read as (its prefix's). */
  form: PartForm;
  /** Characters of the prefix, on the reader's first line. */
  prefix: number;
  /** Where the part's text ends (the next part's start). */
  endAt: Position;
  /** Not the last part: the form when its text ends between two events, else undefined (the next part is not used). */
  boundary: PartForm | undefined;
  found: Diagnostic[];
  dropped: number;
  droppedError: boolean;
  broken: Diagnostic | undefined;
  /** B, E, b, e and M events, to be checked by the whole's checker in order. */
  replay: RawEvent[];
  flows: PartFlows;
  /** Its flows paired from nothing (undefined past a cap): the whole's checker takes those it has not seen as they are. */
  flowState: FlowState | undefined;
  /** A cap was passed: the part's result is not used. */
  overflow: boolean;
  tsStrings: number;
  firstTsString: Range | undefined;
  arrayClosed: boolean;
  /** The last part: its splitter at the document's end. */
  last: { started: boolean; finished: boolean; stopped: boolean } | undefined;
}

/** What a part's checker keeps for the checker of the whole. */
export class PartLog {
  broken: Diagnostic | undefined;
  readonly replay: RawEvent[] = [];
  private readonly keys: string[] = [];
  private readonly roles: number[] = [];
  private readonly ts: number[] = [];
  private readonly pos: number[] = [];
  overflow = false;
  private replayChars = 0;

  constructor(readonly form: PartForm) {}

  keep(raw: RawEvent): void {
    if (this.overflow) return;
    this.replayChars += raw.text.length;
    if (this.replay.length >= MAX_PART_REPLAY || this.replayChars > MAX_PART_REPLAY_CHARS) this.overflow = true;
    else this.replay.push(raw);
  }

  flow(key: string, role: FlowRole, ts: number, range: Range): void {
    if (this.overflow) return;
    if (this.keys.length >= MAX_PART_FLOWS) {
      this.overflow = true;
      return;
    }
    this.keys.push(key);
    this.roles.push(ROLES.indexOf(role));
    this.ts.push(ts);
    this.pos.push(range.start.line, range.start.character, range.end.line, range.end.character);
  }

  /** The flow events kept, as columns. */
  flows(): PartFlows {
    return {
      keys: this.keys.join(''), keyLength: Int32Array.from(this.keys, (k) => k.length), role: Uint8Array.from(this.roles),
      ts: Float64Array.from(this.ts), pos: Int32Array.from(this.pos),
    };
  }
}

/** A position of a part's reader in the document, the part starting at `at` after `prefix` characters. */
export function shiftPosition(p: Position, at: Position, prefix: number): Position {
  return p.line === 0 ? { line: at.line, character: at.character + p.character - prefix } : { line: at.line + p.line, character: p.character };
}

export function shiftRange(r: Range, at: Position, prefix: number): Range {
  return { start: shiftPosition(r.start, at, prefix), end: shiftPosition(r.end, at, prefix) };
}

export function shiftDiagnostic(d: Diagnostic, at: Position, prefix: number): Diagnostic {
  return { ...d, range: shiftRange(d.range, at, prefix) };
}

/** An event kept for replay, where it stands in the document (its own line offsets do not move). */
export function shiftRaw(raw: RawEvent, at: Position, prefix: number): RawEvent {
  const p = shiftPosition({ line: raw.line, character: raw.character }, at, prefix);
  return { ...raw, line: p.line, character: p.character };
}
