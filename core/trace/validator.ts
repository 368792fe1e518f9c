import type { ErrorObject, ValidateFunction } from 'ajv';
import * as validators from './validators.gen';

// Precompiled from schemas/trace by scripts/gen-validators.mjs: no schema is compiled at start-up.
const compiled = new Map<string, ValidateFunction>(Object.entries(validators));

/** Validates a parsed event against the schema of its type; undefined when valid. */
export function validateEvent(type: string, obj: unknown): ErrorObject[] | undefined {
  const v = compiled.get(type);
  if (!v || v(obj)) return undefined;
  return v.errors ?? [];
}
