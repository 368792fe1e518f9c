import type { ErrorObject, ValidateFunction } from 'ajv';
import * as v from './validators.gen';

// Precompiled from schemas/inferscope by scripts/gen-validators.mjs; the schemas reference each
// other by file name, the relative references VS Code resolves through jsonValidation.
const byType = new Map<string, ValidateFunction>([
  ['cpu_call', v.cpu_call], ['cpu_syscall', v.cpu_syscall], ['gpu_kernel', v.gpu_kernel], ['h2d_copy', v.h2d_copy],
  ['d2h_copy', v.d2h_copy], ['memory_event', v.memory_event], ['instant', v.instant],
]);

export const EVENT_TYPES: readonly string[] = [...byType.keys()];

function run(f: ValidateFunction, o: unknown): ErrorObject[] | undefined {
  return f(o) ? undefined : (f.errors ?? []);
}

/** An event against the schema of its type, or the common fields when the type is missing or unknown. */
export function validateEvent(o: Record<string, unknown>): ErrorObject[] | undefined {
  const t = o.type;
  return run((typeof t === 'string' && byType.get(t)) || v.event, o);
}

export const validateScope = (o: unknown) => run(v.scope, o);
export const validateTraceMetadata = (o: unknown) => run(v.trace_metadata, o);
export const validateSystemInfo = (o: unknown) => run(v.system_info, o);
export const validateAnalysis = (o: unknown) => run(v.analysis, o);
export const validateReport = (o: unknown) => run(v.report, o);
