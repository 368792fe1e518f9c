import type { ErrorObject } from 'ajv';
import { clip } from '../common/clip';
import { escapeControl, MAX_QUOTED } from '../common/escape';
import { describeValue, pointer, quoteString, schemaProblem } from '../common/schemaMessages';
import { nearest } from '../common/nearest';
import { canonicalType, EVENT_TYPES, eventSchema } from './eventTypes';
import type { Id, LocalDiagnostic, TraceLine } from './line';
import { findField, scanLine, valueRangeAt, type LineScan } from '../json/scanner';
import { validateEvent } from './validator';

const EMPTY: TraceLine = Object.freeze({ text: '', event: false, obj: undefined, type: undefined, t: undefined, cmd: undefined, job: undefined, tx: undefined, latency: undefined, local: undefined }) as TraceLine;

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 0xfeff) return false;
  }
  return true;
}

/**
 * A cycle count the cross-line checks may compute with and quote: beyond 2^53 JSON.parse has
 * rounded it (or made it Infinity), so differences and messages would be wrong. Such a value has
 * its own schema diagnostic when it is invalid, and its exact digits in the hover.
 */
function cycles(v: unknown): number | undefined {
  return typeof v === 'number' && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? v : undefined;
}

function idOf(v: unknown, text: string, key: string, scan: () => LineScan): Id | undefined {
  if (typeof v !== 'number' || !Number.isInteger(v)) return undefined;
  if (Number.isSafeInteger(v)) return v;
  const f = findField(scan(), key);
  return f ? text.slice(f.valueStart, f.valueEnd) : undefined;
}

/**
 * Parses one trace line. The fast path is the engine's JSON.parse; the range-keeping scanner runs
 * only on lines that have a problem to locate, so valid traces pay for positions only on demand.
 */
export function parseTraceLine(text: string): TraceLine {
  if (isBlank(text)) return text.length === 0 ? EMPTY : { ...EMPTY, text };
  let obj: unknown;
  let scanned: LineScan | undefined;
  const scan = () => (scanned ??= scanLine(text));
  try {
    obj = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    const s = scan();
    const e = s.error ?? { start: 0, end: text.length, message: 'Invalid JSON' };
    // An error at the end of the line (a truncated event) marks the last character: ranges must
    // stay inside the line, and a zero-width range would be hard to see.
    const start = Math.max(0, Math.min(e.start, text.length - 1));
    const end = Math.min(text.length, Math.max(e.end, start + 1));
    return { ...EMPTY, text, local: [{ start, end, code: 'trace.invalid-json', severity: 'error', message: `Invalid JSON: ${escapeControl(e.message)}` }] };
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    const s = scan();
    const what = obj === null ? 'null' : Array.isArray(obj) ? 'an array' : `a ${typeof obj}`;
    return { ...EMPTY, text, local: [{ start: s.objStart, end: Math.max(s.objEnd, s.objStart + 1), code: 'trace.not-object', severity: 'error', message: `Each line must be one JSON object (an event); this line is ${what}` }] };
  }
  const o = obj as Record<string, unknown>;
  const line: TraceLine = {
    text, event: true, obj: o, type: undefined,
    t: cycles(o.t_cycle),
    cmd: idOf(o.cmd_id, text, 'cmd_id', scan),
    job: idOf(o.job_id, text, 'job_id', scan),
    tx: idOf(o.tx_id, text, 'tx_id', scan),
    latency: cycles(o.latency_cycles),
    local: undefined,
  };
  const et = o.event_type;
  if (et === undefined) {
    const s = scan();
    line.local = [{ start: s.objStart, end: s.objStart + 1, code: 'trace.missing-field', severity: 'error', message: 'Missing required field "event_type": every line needs one (e.g. "CMD_START")' }];
    return line;
  }
  if (typeof et !== 'string') {
    const f = findField(scan(), 'event_type')!;
    line.local = [{ start: f.valueStart, end: f.valueEnd, code: 'trace.wrong-type', severity: 'error', message: `"event_type" must be a string naming the event type, got ${describeValue(et, typeof et === 'number' ? text.slice(f.valueStart, f.valueEnd) : undefined)}` }];
    return line;
  }
  if (!eventSchema(et)) {
    const f = findField(scan(), 'event_type')!;
    const near = nearest(et, EVENT_TYPES);
    line.local = [{ start: f.valueStart, end: f.valueEnd, code: 'trace.unknown-event-type', severity: 'error',
      message: `Unknown event_type ${quoteString(et, 80)}${near ? `; did you mean "${near}"?` : ''}`, ...(near ? { replacement: JSON.stringify(near) } : {}) }];
    return line;
  }
  line.type = canonicalType(et);
  const errors = validateEvent(et, o);
  const local: LocalDiagnostic[] = [];
  if (errors) {
    for (const err of errors) {
      const d = schemaDiagnostic(et, err, o, scan(), text);
      if (d) local.push(d);
    }
  }
  if (et === 'ERROR' || et === 'WARN') local.push(reported(et, o, scan()));
  if (local.length) line.local = local;
  return line;
}

function schemaDiagnostic(type: string, err: ErrorObject, o: Record<string, unknown>, scan: LineScan, text: string): LocalDiagnostic | undefined {
  const path = pointer(err.instancePath);
  const f = path.length ? findField(scan, path[0]) : undefined;
  const at = f ? (path.length > 1 && valueRangeAt(text, f.valueStart, path.slice(1))) || [f.valueStart, f.valueEnd] : (() => {
    const e = findField(scan, 'event_type');
    return e ? [e.valueStart, e.valueEnd] : [scan.objStart, scan.objStart + 1];
  })();
  const problem = schemaProblem(err, {
    label: type, obj: o,
    fieldType: (name) => eventSchema(type)?.properties?.[name]?.type,
    // The range is the value's own only when the error is about a field that is there.
    token: () => (f ? text.slice(at[0], at[1]) : undefined),
  });
  if (!problem) return undefined;
  // A suggestion replaces the value only where the range is that value's own.
  const fix = f && problem.suggestion !== undefined ? { replacement: JSON.stringify(problem.suggestion) } : {};
  return { start: at[0], end: at[1], severity: 'error', code: `trace.${problem.kind}`, message: problem.message, ...fix };
}

// The simulator's own line breaks stay (the Problems panel shows them; the CLI's one-line outputs show each as \x0a);
// every other control character is made visible, so a message cannot drive a terminal.
function reportedText(msg: string): string {
  return clip(msg, MAX_QUOTED).split(/\r\n|\r|\n/).map(escapeControl).join('\n');
}

function reported(type: 'ERROR' | 'WARN', o: Record<string, unknown>, scan: LineScan): LocalDiagnostic {
  const f = findField(scan, 'msg') ?? findField(scan, 'event_type')!;
  const parts = [o.component, o.code].filter((x): x is string => typeof x === 'string' && x !== '').map((x) => escapeControl(clip(x))).join(' ');
  return {
    start: f.valueStart, end: f.valueEnd,
    code: type === 'ERROR' ? 'trace.reported-error' : 'trace.reported-warning',
    severity: type === 'ERROR' ? 'error' : 'warning',
    message: `Simulator ${type === 'ERROR' ? 'error' : 'warning'}${parts ? ` [${parts}]` : ''}: ${typeof o.msg === 'string' ? reportedText(o.msg) : '(no msg)'}`,
  };
}
