import { EVENT_SCHEMAS } from './schemas';

// Kinds of JSON value, as bits, so a rule's allowed types are one mask.
export const STR = 1, INT = 2, NUM = 4, BOOL = 8, NULL = 16;

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
  bytes: Uint8Array;
  /** Indexed by key id. */
  rules: (Rule | undefined)[];
  requiredMask: number;
}

const KIND_BITS: Record<string, number> = { string: STR, integer: INT, number: NUM | INT, boolean: BOOL, null: NULL };

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** Every property name of every schema gets a small id, found by (length, first byte). */
export const KEY_NAMES: string[] = [];
const keyIds = new Map<string, number>();
// Dense (pre-filled) so lookups stay on V8's fast elements path.
export const KEY_TABLE: { bytes: Uint8Array; id: number }[][] = Array.from({ length: 64 * 128 }, () => []);
export function keySlot(len: number, first: number): number {
  return len < 64 ? len * 128 + (first & 127) : -1;
}
function keyId(name: string): number {
  let id = keyIds.get(name);
  if (id === undefined) {
    id = KEY_NAMES.length;
    KEY_NAMES.push(name);
    keyIds.set(name, id);
    const slot = keySlot(name.length, name.charCodeAt(0));
    KEY_TABLE[slot].push({ bytes: ascii(name), id });
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
    if (key !== 'event_type' && s.required.includes(key)) {
      rule.requiredBit = bit;
      requiredMask |= bit;
      bit <<= 1;
    }
    rules[keyId(key)] = rule;
  }
  TYPE_RULES.push({ name: type, bytes: ascii(type), rules, requiredMask });
}
// Dense rule arrays (no holes) for every type, now that every key has its id.
for (const tr of TYPE_RULES) for (let k = 0; k < KEY_NAMES.length; k++) tr.rules[k] ??= undefined;

export const K_EVENT_TYPE = keyId('event_type');
export const K_T_CYCLE = keyId('t_cycle');
export const K_CMD = keyId('cmd_id');
export const K_JOB = keyId('job_id');
export const K_TX = keyId('tx_id');
export const K_LATENCY = keyId('latency_cycles');

export function sameBytes(b: Uint8Array, s: number, e: number, want: Uint8Array): boolean {
  if (e - s !== want.length) return false;
  for (let k = 0; k < want.length; k++) if (b[s + k] !== want[k]) return false;
  return true;
}
