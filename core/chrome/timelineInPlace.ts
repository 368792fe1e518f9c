import { BOOL, INT, NESTED, NULL, NUM, STR } from '../json/flatObject';
import { ESCAPED, objectFieldsReader } from '../json/objectFields';

/** The fields the timeline draws an event from, by id. */
const PH = 0, TS = 1, DUR = 2, PID = 3, TID = 4, NAME = 5, CAT = 6, CNAME = 7, ID = 8, BIND_ID = 9, FLOW_IN = 10, FLOW_OUT = 11, BP = 12, ARGS = 13;
const FIELDS = objectFieldsReader(['ph', 'ts', 'dur', 'pid', 'tid', 'name', 'cat', 'cname', 'id', 'bind_id', 'flow_in', 'flow_out', 'bp', 'args']);
/** The one field of `args` the timeline reads: the bytes of a copy (`bytesOf`). */
const BYTES = objectFieldsReader(['bytes']);
/** The phases read in place (ChromeTimelineBuilder `draw`), as one-character strings by code. */
export const DRAWN: (string | undefined)[] = [];
for (const ph of 'XBEiIRnstf') DRAWN[ph.charCodeAt(0)] = ph;
/** A value the in-place reading does not take (an object or array where the builder wants a primitive). */
const NOPE = Symbol('nope');
/** Strings of the text kept as the builder's own (see `own`); past this, each is copied. */
const MAX_OWN = 100_000;
/** V8 makes a slice of this many characters or more a view of the text it is cut from. */
const MIN_VIEW = 13;

/**
 * The fields of one event read where it stands in the text (`objectFieldsReader`), as the values
 * JSON.parse would give them, for the phases the timeline draws from plain fields. `read` is sure
 * or declines (-1): a phase other than those, a `ts` or X's `dur` that is not a finite number, a
 * name, category, pid, tid, id or bind_id that is an object or array, `args` whose bytes cannot be
 * read in place. A string with escapes is decoded alone (JSON.parse of its text).
 */
export class TimelineFields {
  empty = false;
  ph = '';
  ts = 0;
  dur: number | undefined;
  /** X: `args.bytes` when it is a positive finite number, else 0 (`bytesOf`). */
  bytes = 0;
  name: unknown;
  cat: unknown;
  cname: unknown;
  pid: unknown;
  tid: unknown;
  id: unknown;
  bindId: unknown;
  flowIn = false;
  flowOut = false;
  bpE = false;
  /**
   * Strings cut from the text, each kept as one copy: a slice would hold the whole piece it was cut
   * from (megabytes) for as long as the model keeps the name, and names repeat.
   */
  private readonly owned = new Map<string, string>();

  /** `own: false`: strings stay slices of the text (a reader that hands them on at once, timelineOps.ts). */
  constructor(private readonly owning = true) {}
  /** In the text last read, the next `"bytes"` and backslash at or after the last args looked at (-1: none). */
  private text = '';
  private nextBytes = -1;
  private nextBackslash = -1;

  /** The index past the event whose `{` is at `i`, or -1 (declined). */
  read(t: string, i: number, limit: number): number {
    const r = FIELDS;
    const end = r.read(t, i, limit);
    if (end < 0) return -1;
    this.empty = r.fields === 0;
    if (this.empty) return end;
    const { kind, start, flags, num } = r;
    if (kind[PH] !== STR || flags[PH] !== 0 || r.end[PH] - start[PH] !== 3) return -1;
    const ph = DRAWN[t.charCodeAt(start[PH] + 1)];
    if (ph === undefined) return -1;
    if ((kind[TS] !== INT && kind[TS] !== NUM) || !Number.isFinite(num[TS])) return -1;
    const name = this.value(t, NAME), cat = this.value(t, CAT), cname = this.value(t, CNAME), pid = this.value(t, PID), tid = this.value(t, TID);
    if (name === NOPE || cat === NOPE || cname === NOPE || pid === NOPE || tid === NOPE) return -1;
    this.dur = undefined;
    this.bytes = 0;
    this.bindId = undefined;
    this.id = undefined;
    this.bpE = false;
    if (ph === 'X') {
      if ((kind[DUR] !== INT && kind[DUR] !== NUM) || !Number.isFinite(num[DUR])) return -1;
      this.dur = num[DUR];
      const bytes = this.bytesIn(t);
      if (bytes < 0) return -1;
      this.bytes = bytes;
    }
    if (ph === 'X' || ph === 'B') {
      const bindId = this.value(t, BIND_ID);
      if (bindId === NOPE) return -1;
      this.bindId = bindId;
      this.flowIn = kind[FLOW_IN] === BOOL && num[FLOW_IN] === 1;
      this.flowOut = kind[FLOW_OUT] === BOOL && num[FLOW_OUT] === 1;
    } else if (ph === 's' || ph === 't' || ph === 'f') {
      // As `event` keys a flow: a number or string id (others take the full way, for id2 and bind_id).
      if (kind[ID] !== INT && kind[ID] !== NUM && kind[ID] !== STR) return -1;
      this.id = this.value(t, ID);
      this.bpE = kind[BP] === STR && this.value(t, BP) === 'e';
    }
    this.ph = ph;
    this.ts = num[TS];
    this.name = name;
    this.cat = cat;
    this.cname = cname;
    this.pid = pid;
    this.tid = tid;
    return end;
  }

  /** Field `k`'s value as JSON.parse gives it: undefined when absent, NOPE for an object or array. */
  private value(t: string, k: number): unknown {
    const r = FIELDS;
    switch (r.kind[k]) {
      case 0: return undefined;
      case STR: return (r.flags[k] & ESCAPED) !== 0 ? this.own(JSON.parse(t.slice(r.start[k], r.end[k])) as string) : this.own(t.slice(r.start[k] + 1, r.end[k] - 1));
      case INT: case NUM: return r.num[k];
      case BOOL: return r.num[k] === 1;
      case NULL: return null;
      default: return NOPE;
    }
  }

  /** One copy of a string cut from the text (see `owned`). */
  private own(s: string): string {
    if (s.length < MIN_VIEW || !this.owning) return s;
    const known = this.owned.get(s);
    if (known !== undefined) return known;
    // A flat copy: the concatenation is flattened into a new string before it is sliced.
    const copy = (` ${s}`).slice(1);
    if (this.owned.size < MAX_OWN) this.owned.set(copy, copy);
    return copy;
  }

  /**
   * X's bytes (`bytesOf`): 0 without object args or without a `bytes` key in them, found by search
   * (an args with no `"bytes"` and no backslash, which could spell the key, has none); else read
   * from the args' top level, -1 when that reading is not sure.
   */
  private bytesIn(t: string): number {
    const r = FIELDS;
    if (r.kind[ARGS] !== NESTED || t.charCodeAt(r.start[ARGS]) !== 123) return 0;
    const s = r.start[ARGS], e = r.end[ARGS];
    if (t !== this.text) {
      this.text = t;
      this.nextBytes = this.nextBackslash = 0;
    }
    if (this.nextBytes >= 0 && this.nextBytes < s) this.nextBytes = t.indexOf('"bytes"', s);
    if (this.nextBackslash >= 0 && this.nextBackslash < s) this.nextBackslash = t.indexOf('\\', s);
    if ((this.nextBytes < 0 || this.nextBytes >= e) && (this.nextBackslash < 0 || this.nextBackslash >= e)) return 0;
    const b = BYTES;
    if (b.read(t, s, e) !== e) return -1;
    const v = b.kind[0] === INT || b.kind[0] === NUM ? b.num[0] : 0;
    return Number.isFinite(v) && v > 0 ? v : 0;
  }
}
