import { ascii } from '../json/byteTrie';
import { BOOL, INT, NULL, NUM, STR } from '../json/flatObject';
import { EVENT_SCHEMAS } from './schemas';

// A rule's allowed kinds are one mask of the flat-object reader's kind bits; no rule allows its
// NESTED (an object or array: other schema fields of those types are `unsupported`) but LIST,
// and extra fields may hold it.
export { INT, NESTED, NUM, STR } from '../json/flatObject';
/**
 * A rule's kind only: an array of strings, each one of `enumValues` (SRAM_CONFLICT's
 * `stalled_clients`; 1 % of the lines of a generated trace took the full parse for it).
 */
export const LIST = 64;

export interface Rule {
  kinds: number;
  enumValues?: Uint8Array[];
  nonNegative: boolean;
  /** Rules the byte scanner cannot check (e.g. exclusiveMinimum) send the line to ajv. */
  unsupported: boolean;
  requiredBit: number;
}

export interface TypeRules {
  name: string;
  /** Its place in TYPE_RULES. */
  index: number;
  bytes: Uint8Array;
  /** Indexed by key id. */
  rules: (Rule | undefined)[];
  requiredMask: number;
}

const KIND_BITS: Record<string, number> = { string: STR, integer: INT, number: NUM | INT, boolean: BOOL, null: NULL };


/** The enum of a property that is exactly an array of enum strings, with nothing else ajv would check. */
function listEnum(p: object): string[] | undefined {
  const { type, items, ...rest } = p as { type?: unknown; items?: { type?: unknown; enum?: unknown } };
  if (type !== 'array' || !items || Object.keys(rest).some((k) => k !== 'description')) return undefined;
  const { type: t, enum: values, ...more } = items;
  if (t !== 'string' || !Array.isArray(values) || Object.keys(more).some((k) => k !== 'description')) return undefined;
  return values.every((v) => typeof v === 'string' && /^[\x20-\x7e]*$/.test(v) && !/["\\]/.test(v)) ? (values as string[]) : undefined;
}

/** Every property name of every schema gets a small id. */
export const KEY_NAMES: string[] = [];
const keyIds = new Map<string, number>();
function keyId(name: string): number {
  let id = keyIds.get(name);
  if (id === undefined) {
    id = KEY_NAMES.length;
    KEY_NAMES.push(name);
    keyIds.set(name, id);
  }
  return id;
}

/** The schemas in schemas/trace compiled to flat per-field rules for the byte scanner. */
export const TYPE_RULES: TypeRules[] = [];
for (const [type, s] of Object.entries(EVENT_SCHEMAS)) {
  const rules: (Rule | undefined)[] = [];
  let bit = 1;
  let requiredMask = 0;
  for (const [key, p] of Object.entries(s.properties)) {
    const types = p.type === undefined ? [] : Array.isArray(p.type) ? p.type : [p.type];
    let kinds = 0;
    for (const t of types) kinds |= KIND_BITS[t] ?? 0;
    const min = p.minimum;
    const rule: Rule = {
      kinds,
      nonNegative: min === 0,
      unsupported: (min !== undefined && min !== 0) || (p as { exclusiveMinimum?: number }).exclusiveMinimum !== undefined || types.some((t) => !(t in KIND_BITS)),
      requiredBit: 0,
    };
    if (p.enum) rule.enumValues = p.enum.map(ascii);
    const list = listEnum(p);
    if (list) {
      rule.kinds = LIST;
      rule.unsupported = false;
      rule.enumValues = list.map(ascii);
    }
    if (key !== 'event_type' && s.required.includes(key)) {
      rule.requiredBit = bit;
      requiredMask |= bit;
      bit <<= 1;
    }
    rules[keyId(key)] = rule;
  }
  TYPE_RULES.push({ name: type, index: TYPE_RULES.length, bytes: ascii(type), rules, requiredMask });
}
// Dense rule arrays (no holes) for every type, now that every key has its id.
for (const tr of TYPE_RULES) for (let k = 0; k < KEY_NAMES.length; k++) tr.rules[k] ??= undefined;

export const K_EVENT_TYPE = keyId('event_type');
export const K_T_CYCLE = keyId('t_cycle');
export const K_CMD = keyId('cmd_id');
export const K_JOB = keyId('job_id');
export const K_TX = keyId('tx_id');
export const K_LATENCY = keyId('latency_cycles');

