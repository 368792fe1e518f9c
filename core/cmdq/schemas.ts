// The CMDQ JSON Schemas live in schemas/cmdq/ (also contributed to VS Code through jsonValidation);
// they are bundled, never read at run time.
import common from '../../schemas/cmdq/common.schema.json';
import metadata from '../../schemas/cmdq/metadata.schema.json';
import DMA_LOAD_TILE from '../../schemas/cmdq/DMA_LOAD_TILE.schema.json';
import DMA_STORE_TILE from '../../schemas/cmdq/DMA_STORE_TILE.schema.json';
import TE_GEMM_TILE from '../../schemas/cmdq/TE_GEMM_TILE.schema.json';
import VE_TILE from '../../schemas/cmdq/VE_TILE.schema.json';
import END from '../../schemas/cmdq/END.schema.json';

export interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  description?: string;
}

export interface CmdqSchema {
  title: string;
  description: string;
  required?: string[];
  properties: Record<string, PropertySchema>;
}

/** Schema file name (its key for `$ref`) → schema. */
export const SCHEMA_FILES: Record<string, object> = {
  'common.schema.json': common,
  'metadata.schema.json': metadata,
  'DMA_LOAD_TILE.schema.json': DMA_LOAD_TILE,
  'DMA_STORE_TILE.schema.json': DMA_STORE_TILE,
  'TE_GEMM_TILE.schema.json': TE_GEMM_TILE,
  'VE_TILE.schema.json': VE_TILE,
  'END.schema.json': END,
};

export const COMMON_SCHEMA = common as unknown as CmdqSchema;
export const METADATA_SCHEMA = metadata as unknown as CmdqSchema;
export const OPCODE_SCHEMAS: Record<string, CmdqSchema> = { DMA_LOAD_TILE, DMA_STORE_TILE, TE_GEMM_TILE, VE_TILE, END } as unknown as Record<string, CmdqSchema>;
