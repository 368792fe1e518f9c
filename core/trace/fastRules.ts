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

/**
 * A trie over printable ASCII, walked byte by byte while the scanner checks a string anyway, so a
 * key or an event type is known when its closing quote is reached, with no second pass comparing
 * bytes. State 1 is the root; 0 means no name continues this way.
 */
export interface ByteTrie {
  /** Next state for byte `c` (32..126) of state `s`: `next[s * 95 + c - 32]`. */
  next: Int32Array;
  /** `value + 1` of the name ending at each state, 0 where none ends. */
  accept: Int32Array;
}

function byteTrie(names: readonly string[]): ByteTrie {
  const size = 2 + names.reduce((n, x) => n + x.length, 0);
  const next = new Int32Array(size * 95);
  const accept = new Int32Array(size);
  let states = 2;
  names.forEach((name, value) => {
    let st = 1;
    for (let k = 0; k < name.length; k++) {
      const c = name.charCodeAt(k);
      if (c < 32 || c > 126 || c === 34 || c === 92) throw new Error(`name ${name} is not plain printable ASCII`);
      const at = st * 95 + c - 32;
      if (next[at] === 0) next[at] = states++;
      st = next[at];
    }
    accept[st] = value + 1;
  });
  return { next, accept };
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

export const KEY_TRIE = byteTrie(KEY_NAMES);
export const TYPE_TRIE = byteTrie(TYPE_RULES.map((t) => t.name));

export function sameBytes(b: Uint8Array, s: number, e: number, want: Uint8Array): boolean {
  if (e - s !== want.length) return false;
  for (let k = 0; k < want.length; k++) if (b[s + k] !== want[k]) return false;
  return true;
}
