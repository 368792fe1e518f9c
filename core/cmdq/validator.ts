import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { schemaKey } from './opcodes';
import { SCHEMA_FILES } from './schemas';

// Compiled once per process. Schemas reference each other by file name ($ref "common.schema.json"),
// the same relative references VS Code resolves when it reads them through jsonValidation.
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
for (const [name, schema] of Object.entries(SCHEMA_FILES)) ajv.addSchema(schema, name);

function get(name: string): ValidateFunction {
  const v = ajv.getSchema(name);
  if (!v) throw new Error(`schema ${name} failed to compile`);
  return v;
}

const common = get('common.schema.json');
const metadata = get('metadata.schema.json');
const byOpcode = new Map<string, ValidateFunction>();
for (const k of ['DMA_LOAD_TILE', 'DMA_STORE_TILE', 'TE_GEMM_TILE', 'VE_TILE', 'END']) byOpcode.set(k, get(`${k}.schema.json`));

/**
 * Validates an entry against the schema of its opcode, or only the common fields when the opcode is
 * missing or unknown. Undefined when valid.
 */
export function validateEntry(obj: Record<string, unknown>, opcode: string | undefined): ErrorObject[] | undefined {
  const key = opcode !== undefined ? schemaKey(opcode) : undefined;
  const v = (key && byOpcode.get(key)) || common;
  return v(obj) ? undefined : (v.errors ?? []);
}

export function validateMetadata(obj: unknown): ErrorObject[] | undefined {
  return metadata(obj) ? undefined : (metadata.errors ?? []);
}
