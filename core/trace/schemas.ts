// One JSON Schema per event type lives in schemas/trace/; they are bundled, never read at run time.
import CMD_ENQUEUE from '../../schemas/trace/CMD_ENQUEUE.schema.json';
import CMD_START from '../../schemas/trace/CMD_START.schema.json';
import CMD_END from '../../schemas/trace/CMD_END.schema.json';
import JOB_ISSUE from '../../schemas/trace/JOB_ISSUE.schema.json';
import JOB_DONE from '../../schemas/trace/JOB_DONE.schema.json';
import DMA_START from '../../schemas/trace/DMA_START.schema.json';
import DMA_END from '../../schemas/trace/DMA_END.schema.json';
import TE_START from '../../schemas/trace/TE_START.schema.json';
import TE_END from '../../schemas/trace/TE_END.schema.json';
import VE_START from '../../schemas/trace/VE_START.schema.json';
import VE_END from '../../schemas/trace/VE_END.schema.json';
import SRAM_ACCESS from '../../schemas/trace/SRAM_ACCESS.schema.json';
import SRAM_CONFLICT from '../../schemas/trace/SRAM_CONFLICT.schema.json';
import DRAM_TX_START from '../../schemas/trace/DRAM_TX_START.schema.json';
import DRAM_TX_END from '../../schemas/trace/DRAM_TX_END.schema.json';
import NOC_TX_START from '../../schemas/trace/NOC_TX_START.schema.json';
import NOC_TX_END from '../../schemas/trace/NOC_TX_END.schema.json';
import IRQ_EMIT from '../../schemas/trace/IRQ_EMIT.schema.json';
import TOKEN_COMPLETE from '../../schemas/trace/TOKEN_COMPLETE.schema.json';
import ERROR from '../../schemas/trace/ERROR.schema.json';
import WARN from '../../schemas/trace/WARN.schema.json';
import TRACE_META from '../../schemas/trace/TRACE_META.schema.json';

export interface EventSchema {
  title: string;
  description: string;
  'x-family': string;
  required: string[];
  properties: Record<string, { type?: string | string[]; enum?: string[]; description?: string; minimum?: number }>;
}

export const EVENT_SCHEMAS: Record<string, EventSchema> = {
  CMD_ENQUEUE, CMD_START, CMD_END, JOB_ISSUE, JOB_DONE, DMA_START, DMA_END, TE_START, TE_END, VE_START, VE_END, SRAM_ACCESS, SRAM_CONFLICT, DRAM_TX_START, DRAM_TX_END, NOC_TX_START, NOC_TX_END, IRQ_EMIT, TOKEN_COMPLETE, ERROR, WARN, TRACE_META,
} as unknown as Record<string, EventSchema>;
