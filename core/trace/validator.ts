import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { EVENT_SCHEMAS } from './schemas';

// Compiled once per process; `x-family` is our annotation, not a validation keyword.
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
ajv.addKeyword({ keyword: 'x-family', schemaType: 'string' });

const compiled = new Map<string, ValidateFunction>();
for (const [type, schema] of Object.entries(EVENT_SCHEMAS)) compiled.set(type, ajv.compile(schema));

/** Validates a parsed event against the schema of its type; undefined when valid. */
export function validateEvent(type: string, obj: unknown): ErrorObject[] | undefined {
  const v = compiled.get(type);
  if (!v || v(obj)) return undefined;
  return v.errors ?? [];
}
