// The one translation of ajv errors into messages, for trace events and CMDQ entries alike, so both
// formats word a problem the same way and quote what the file holds the same way: strings cut and
// with controls escaped, numbers as the digits written in the file (JSON.parse rounds
// -9223372036854775808 and turns a 400-digit integer into Infinity).
import type { ErrorObject } from 'ajv';
import { clip } from './clip';
import { escapeControl, MAX_QUOTED } from './escape';
import { nearest } from './nearest';

/** Longest string value quoted in a message (a message names the value, it does not reproduce it). */
const MAX_STRING = 40;

/** A string from a file inside a message: JSON-quoted, cut, every control character visible. */
export function quoteString(s: string, max = MAX_STRING): string {
  // JSON.stringify escapes C0 controls and quotes; escapeControl adds DEL, C1 and U+2028/2029.
  return escapeControl(JSON.stringify(clip(s, max)));
}

/**
 * What a value is, for "got …". A number is quoted as `source` (its token in the file) when that
 * token is the value, so the digits are the ones written; without it, a value JSON.parse could not
 * represent is said to be too large rather than printed as Infinity.
 */
export function describeValue(v: unknown, source?: string): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${quoteString(v)}`;
  if (typeof v === 'number') {
    if (source !== undefined && Object.is(Number(source), v)) {
      return `number ${escapeControl(clip(source, MAX_QUOTED))}${Number.isFinite(v) ? '' : ', too large to represent'}`;
    }
    if (!Number.isFinite(v)) return 'a number too large to represent';
  }
  return `${typeof v} ${String(v)}`;
}

/** "an integer", "a string or null", … for a JSON Schema `type`. */
export function typeName(t: string | string[] | undefined): string {
  const names = (Array.isArray(t) ? t : [t ?? 'value']).map((x) => (x === 'integer' ? 'an integer' : x === 'null' ? 'null' : x === 'array' || x === 'object' ? `an ${x}` : `a ${x}`));
  return names.join(' or ');
}

/** The segments of an ajv instancePath (a JSON Pointer: `~1` is '/', `~0` is '~'). */
export function pointer(path: string): string[] {
  return path.split('/').slice(1).map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(o: unknown, path: string[]): unknown {
  let v = o;
  for (const seg of path) v = (v as Record<string, unknown> | undefined)?.[seg];
  return v;
}

export type SchemaProblemKind = 'missing-field' | 'wrong-type' | 'invalid-value';

export interface SchemaProblem {
  kind: SchemaProblemKind;
  message: string;
  /** The allowed value the message suggests ("did you mean"): a quick fix can write it. */
  suggestion?: string;
}

/** The object an ajv error is about, and how to read what the messages quote. */
export interface SchemaSubject {
  /** What requires a missing field: the event type, the opcode, "Entry". */
  label: string;
  /** The parsed object that was validated. */
  obj: unknown;
  /** The JSON Schema `type` of a property, for "missing required field "x" (an integer)". */
  fieldType(name: string): string | string[] | undefined;
  /** The source text of the value the error is about (asked only when that value is a number). */
  token?(): string | undefined;
}

/** The kind of problem an ajv error is, as `schemaProblem` names it, without wording it. */
export function schemaProblemKind(err: ErrorObject): SchemaProblemKind | undefined {
  switch (err.keyword) {
    case 'if':
    case 'allOf':
    case 'const':
      return undefined;
    case 'required':
      return 'missing-field';
    case 'type':
      return 'wrong-type';
    default:
      return 'invalid-value';
  }
}

/**
 * The message for one ajv error, or undefined for the errors that only say a sub-schema failed
 * (`if`, `allOf`: the failing keyword inside is reported on its own) and for `const`, which guards
 * the field the schema was chosen by and so cannot fail.
 */
export function schemaProblem(err: ErrorObject, s: SchemaSubject): SchemaProblem | undefined {
  const path = pointer(err.instancePath);
  // Keys come from the file too (patternProperties match any `qbits_…`).
  const name = `"${escapeControl(clip(path.join('.')))}"`;
  const got = () => {
    const v = valueAt(s.obj, path);
    return describeValue(v, typeof v === 'number' ? s.token?.() : undefined);
  };
  switch (err.keyword) {
    case 'if':
    case 'allOf':
    case 'const':
      return undefined;
    case 'required': {
      const missing = (err.params as { missingProperty: string }).missingProperty;
      return { kind: 'missing-field', message: `${escapeControl(clip(s.label))} is missing required field "${missing}" (${typeName(s.fieldType(missing))})` };
    }
    case 'type':
      return { kind: 'wrong-type', message: `${name} must be ${typeName((err.params as { type: string | string[] }).type)}, got ${got()}` };
    case 'enum': {
      const allowed = (err.params as { allowedValues: unknown[] }).allowedValues.map(String);
      const v = valueAt(s.obj, path);
      const near = typeof v === 'string' ? nearest(v, allowed) : undefined;
      return { kind: 'invalid-value', message: `${name} must be one of ${allowed.join(', ')}; got ${got()}${near ? `. Did you mean "${near}"?` : ''}`, ...(near ? { suggestion: near } : {}) };
    }
    default:
      return { kind: 'invalid-value', message: `${name} ${err.message ?? 'is invalid'}, got ${got()}` };
  }
}
