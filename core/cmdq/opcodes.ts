import { nearest } from '../common/nearest';
import { COMMON_SCHEMA, OPCODE_SCHEMAS, type CmdqSchema, type PropertySchema } from './schemas';

export const VE_PATTERN = /^VE_[A-Z0-9_]+_TILE$/;

/** Opcodes offered by completion and used for "did you mean"; any VE_<OP>_TILE is also valid. */
export const KNOWN_OPCODES = ['DMA_LOAD_TILE', 'DMA_STORE_TILE', 'TE_GEMM_TILE', 'VE_LAYERNORM_TILE', 'VE_SOFTMAX_TILE', 'VE_GELU_TILE', 'VE_ADD_TILE', 'VE_MUL_TILE', 'END'];

/** Name of the schema that validates an opcode (`VE_TILE` for every VE_*_TILE), or undefined. */
export function schemaKey(opcode: string): string | undefined {
  // Memoised: called several times for each of 100k entries that share a handful of opcodes.
  let k = keyCache.get(opcode);
  if (k === undefined && !keyCache.has(opcode)) {
    k = Object.hasOwn(OPCODE_SCHEMAS, opcode) && opcode !== 'VE_TILE' ? opcode : VE_PATTERN.test(opcode) ? 'VE_TILE' : undefined;
    if (keyCache.size < 1000) keyCache.set(opcode, k);
  }
  return k;
}
const keyCache = new Map<string, string | undefined>();

export function opcodeSchema(opcode: string): CmdqSchema | undefined {
  const k = schemaKey(opcode);
  return k ? OPCODE_SCHEMAS[k] : undefined;
}

export type Engine = 'DMA' | 'TE' | 'VE' | undefined;

export function engineOf(opcode: string | undefined): Engine {
  if (!opcode) return undefined;
  if (opcode.startsWith('DMA_')) return 'DMA';
  if (opcode.startsWith('TE_')) return 'TE';
  if (opcode.startsWith('VE_')) return 'VE';
  return undefined;
}

/** The fields an opcode needs besides the common ones, in a sensible order for completion. */
export function opcodeFields(opcode: string): { name: string; schema: PropertySchema; required: boolean }[] {
  const s = opcodeSchema(opcode);
  if (!s) return [];
  const req = new Set(s.required ?? []);
  const out = Object.entries(s.properties).filter(([k]) => k !== 'opcode').map(([name, schema]) => ({ name, schema, required: req.has(name) }));
  if (schemaKey(opcode) === 'TE_GEMM_TILE') {
    for (const q of ['qbits_ifm', 'qbits_wgt', 'qbits_ofm']) out.push({ name: q, schema: { type: 'integer', description: 'Bits per element of this operand.' }, required: false });
  }
  return out;
}

export function commonFields(): { name: string; schema: PropertySchema }[] {
  return Object.entries(COMMON_SCHEMA.properties).map(([name, schema]) => ({ name, schema }));
}

/** A value that fits a property's schema, used when completion inserts a field. */
export function placeholder(schema: PropertySchema): string {
  const t = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum && schema.enum.length) return JSON.stringify(schema.enum.includes(8) ? 8 : schema.enum[0]);
  if (t === 'string') return '""';
  if (t === 'array') return '[]';
  if (t === 'null') return 'null';
  return String(schema.minimum ?? 0);
}

/** The opcode a typo most likely meant: a VE op missing its _TILE suffix, else the nearest known one. */
export function suggestOpcode(op: string): string | undefined {
  const up = op.toUpperCase();
  if (VE_PATTERN.test(up)) return up;
  if (VE_PATTERN.test(`${up}_TILE`)) return `${up}_TILE`;
  return nearest(op, KNOWN_OPCODES);
}
