import { createReadStream, createWriteStream, renameSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { EVENT_SCHEMAS } from '../core/trace/schemas';

/**
 * Traces that leave the byte fast path, made from the generator's trace line by line: the check
 * must be measured on them too, not only on the flat lines it is best at.
 */
export type Variant = 'nested' | 'optional' | 'errors' | 'bigids';

export const VARIANTS: Record<Variant, string> = {
  nested: 'a nested "dbg":{"q":n} object on every line',
  optional: 'every optional field of the schema filled (long lines)',
  errors: 'one line in 10 broken (wrong type, typo in event_type, truncated, bad enum)',
  bigids: 'every cmd_id, job_id and tx_id with 20 digits (beyond 2^53)',
};

/** Fields left alone when filling optional ones: they would change pairing, ids or latencies. */
const CROSS_LINE = new Set(['event_type', 't_cycle', 'cmd_id', 'job_id', 'tx_id', 'latency_cycles']);

function sample(p: Record<string, unknown>, name: string): unknown {
  if (p.const !== undefined) return undefined;
  if (Array.isArray(p.enum)) return p.enum[0];
  const t = Array.isArray(p.type) ? p.type[0] : p.type;
  const items = p.items as { enum?: unknown[]; type?: string } | undefined;
  switch (t) {
    case 'integer': return 4096;
    case 'number': return 12.5;
    case 'string': return `${name}_sample_value_0123456789`;
    case 'boolean': return true;
    case 'array': return items?.enum ? [items.enum[0]] : items?.type === 'integer' ? [1, 2, 3] : [];
    default: return undefined;
  }
}

const optionalCache = new Map<string, string>();

/** The JSON text of every optional field `type`'s schema names, as `,"k":v` pairs. */
function optionalFields(type: string, present: Record<string, unknown>): string {
  const key = `${type} ${Object.keys(present).join()}`;
  let s = optionalCache.get(key);
  if (s === undefined) {
    s = '';
    const schema = EVENT_SCHEMAS[type];
    for (const [k, p] of Object.entries(schema?.properties ?? {})) {
      if (k in present || CROSS_LINE.has(k)) continue;
      const v = sample(p as Record<string, unknown>, k);
      if (v !== undefined) s += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
    }
    optionalCache.set(key, s);
  }
  return s;
}

function transform(v: Variant, line: string, i: number): string {
  switch (v) {
    case 'nested':
      return `${line.slice(0, -1)},"dbg":{"q":${i % 97}}}`;
    case 'optional': {
      const o = JSON.parse(line) as Record<string, unknown>;
      return `${line.slice(0, -1)}${optionalFields(String(o.event_type), o)}}`;
    }
    case 'errors': {
      if (i % 10 !== 5) return line;
      switch ((i / 10) % 4 | 0) {
        case 0: return line.replace(/"t_cycle":(\d+)/, '"t_cycle":"$1"');
        case 1: return line.replace(/"event_type":"([A-Z_]+)_([A-Z]+)"/, '"event_type":"$1_$2X"');
        case 2: return line.slice(0, line.length >> 1);
        default: return `${line.slice(0, -1)},"status":"FAIL"}`;
      }
    }
    case 'bigids':
      return line.replace(/"(cmd_id|job_id|tx_id)":(\d+)/g, (_m, k: string, n: string) => `"${k}":${(10n ** 19n + BigInt(n)).toString()}`);
  }
}

/** Writes `to` from the generator's trace `from`. */
export async function writeVariant(v: Variant, from: string, to: string): Promise<void> {
  const out = createWriteStream(`${to}.tmp`);
  let i = 0;
  for await (const line of createInterface({ input: createReadStream(from), crlfDelay: Infinity })) {
    if (!out.write(`${i === 0 ? line : transform(v, line, i)}\n`)) await once(out, 'drain');
    i++;
  }
  out.end();
  await once(out, 'finish');
  renameSync(`${to}.tmp`, to);
}
