import type { ErrorObject } from 'ajv';
import { depRange, valueRange } from './fields';
import type { CmdqEntry, ParsedCmdq } from './model';
import { opcodeSchema, suggestOpcode } from './opcodes';
import { COMMON_SCHEMA } from './schemas';
import type { Report } from './report';
import { validateEntry } from './validator';

export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  if (typeof v === 'number' && !Number.isFinite(v)) return 'a number too large to represent';
  return `${typeof v} ${String(v)}`;
}

export function typeName(t: string | string[] | undefined): string {
  const names = (Array.isArray(t) ? t : [t ?? 'value']).map((x) => (x === 'integer' ? 'an integer' : x === 'null' ? 'null' : x === 'array' || x === 'object' ? `an ${x}` : `a ${x}`));
  return names.join(' or ');
}

/** The segments of an ajv instancePath (a JSON Pointer: `~1` is '/', `~0` is '~'). */
export function pointer(path: string): string[] {
  return path.split('/').slice(1).map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(o: unknown, path: string): unknown {
  let v = o;
  for (const seg of pointer(path)) v = (v as Record<string, unknown> | undefined)?.[seg];
  return v;
}

/** Range of what an ajv error points at: a `deps_before` element, a field's value, or the opcode. */
function errorRange(doc: ParsedCmdq, e: CmdqEntry, err: ErrorObject): [number, number] {
  const parts = pointer(err.instancePath);
  if (parts[0] === 'deps_before' && parts.length > 1) return depRange(doc, e, Number(parts[1]));
  return valueRange(doc, e, parts[0] || undefined);
}

/** Schema problems of one entry (ajv), and an unknown opcode with the nearest known one. */
export function entrySchemaDiagnostics(doc: ParsedCmdq, e: CmdqEntry, report: Report): void {
  const o = e.obj!;
  const op = e.opcode;
  if (op !== undefined && !opcodeSchema(op)) {
    const near = suggestOpcode(op);
    const [a, b] = valueRange(doc, e, 'opcode');
    report(a, b, 'error', 'cmdq.unknown-opcode',
      `Unknown opcode "${op}"${near ? `; did you mean "${near}"?` : ''} (known: DMA_LOAD_TILE, DMA_STORE_TILE, TE_GEMM_TILE, VE_<OP>_TILE, END)`);
  }
  const errors = validateEntry(o, op);
  if (!errors) return;
  const schema = (op !== undefined ? opcodeSchema(op) : undefined) ?? COMMON_SCHEMA;
  const label = op !== undefined && opcodeSchema(op) ? op : 'Entry';
  // ajv reports a too-large deps_before element by element; one per kind of problem keeps 1e6 bad deps readable.
  let depsReported = 0;
  for (const err of errors) {
    if (err.keyword === 'if' || err.keyword === 'allOf') continue;
    if (err.instancePath.startsWith('/deps_before/') && ++depsReported > 100) continue;
    const [a, b] = errorRange(doc, e, err);
    const path = pointer(err.instancePath).join('.');
    const v = valueAt(o, err.instancePath);
    switch (err.keyword) {
      case 'required': {
        const missing = (err.params as { missingProperty: string }).missingProperty;
        const prop = schema.properties[missing] ?? COMMON_SCHEMA.properties[missing];
        report(a, b, 'error', 'cmdq.missing-field', `${label} is missing required field "${missing}" (${typeName(prop?.type)})`);
        break;
      }
      case 'type':
        report(a, b, 'error', 'cmdq.wrong-type', `"${path}" must be ${typeName((err.params as { type: string | string[] }).type)}, got ${describeValue(v)}`);
        break;
      case 'enum': {
        const allowed = (err.params as { allowedValues: unknown[] }).allowedValues.map((x) => JSON.stringify(x));
        report(a, b, 'error', 'cmdq.invalid-value', `"${path}" must be one of ${allowed.join(', ')}; got ${describeValue(v)}`);
        break;
      }
      case 'const':
        // The opcode const of an opcode schema cannot fail: the schema was chosen by the opcode.
        break;
      default:
        report(a, b, 'error', 'cmdq.invalid-value', `"${path}" ${err.message ?? 'is invalid'}; got ${describeValue(v)}`);
    }
  }
}
