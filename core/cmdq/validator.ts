import type { ErrorObject, ValidateFunction } from 'ajv';
import { schemaKey } from './opcodes';
import * as validators from './validators.gen';

// Precompiled from schemas/cmdq by scripts/gen-validators.mjs (no schema compiled at start-up). The
// schemas reference each other by file name ($ref "common.schema.json"), the same relative
// references VS Code resolves when it reads them through jsonValidation.
const common = validators.common;
const metadata = validators.metadata;
const byOpcode = new Map<string, ValidateFunction>([
  ['DMA_LOAD_TILE', validators.DMA_LOAD_TILE], ['DMA_STORE_TILE', validators.DMA_STORE_TILE],
  ['TE_GEMM_TILE', validators.TE_GEMM_TILE], ['VE_TILE', validators.VE_TILE], ['END', validators.END],
]);

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
