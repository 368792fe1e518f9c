import { clip } from '../common/clip';
import { escapeControl, MAX_QUOTED } from '../common/escape';

/**
 * Layer and phase codes of NNAPI's tracing macros (rules §3) and the designed nestings (§5).
 * Codes stay plain strings: a trace may carry codes outside these lists, and the reference keeps
 * such scopes in the tree, so we must too (they are reported as `nnapi.unknown-tag`).
 */

export const LAYERS = ['LA', 'LR', 'LI', 'LD', 'LC'] as const;
export type CountedLayer = (typeof LAYERS)[number];
/** Every layer code the macros can emit, plus `LX` (do not count). */
export const KNOWN_LAYERS = new Set(['LA', 'LR', 'LI', 'LD', 'LC', 'LO', 'LU', 'LX']);
export const KNOWN_PHASES = new Set(['PO', 'PWU', 'PBM', 'PI', 'PP', 'PC', 'PE', 'PT', 'PU', 'PIO', 'PTR', 'PCO', 'PR']);

/** The five main phases, in table order. */
export const MAIN_PHASES = ['PI', 'PP', 'PC', 'PE', 'PT'] as const;
export const EXEC_SUBPHASES = ['PIO', 'PTR', 'PCO', 'PR'] as const;
export const APP_PHASES = ['PO', 'PWU', 'PBM'] as const;
export type AppPhase = (typeof APP_PHASES)[number];

export const SUBPHASES: Readonly<Record<string, readonly string[]>> = {
  PE: EXEC_SUBPHASES,
  PO: ['PWU', 'PBM', ...MAIN_PHASES],
  PWU: ['PE'],
  PBM: ['PE'],
};

/** Designed callees: a scope of the key layer may directly contain these layers. */
export const LAYER_ORDER: Readonly<Record<string, readonly string[]>> = {
  LA: ['LR'],
  LR: ['LI', 'LC'],
  LI: ['LD'],
};

export const NAMES: Readonly<Record<string, string>> = {
  PO: 'Overall', PWU: 'Warm-up', PBM: 'Benchmark', PI: 'Initialization', PP: 'Preparation', PC: 'Compilation',
  PE: 'Execution', PT: 'Termination', PU: 'Unspecified', PIO: 'I/O', PTR: 'Transformation', PCO: 'Computation',
  PR: 'Results', LA: 'Application', LR: 'Runtime', LI: 'IPC', LD: 'Driver', LC: 'CPU', LO: 'Other', LU: 'Utility',
  LX: 'Ignored', LT: 'Total',
};

export function isSubphase(phase: string | null, parentPhase: string | null): boolean {
  if (phase === null || parentPhase === null) return false;
  return SUBPHASES[parentPhase]?.includes(phase) ?? false;
}

export function isExecSubphase(phase: string | null): boolean {
  return phase !== null && (EXEC_SUBPHASES as readonly string[]).includes(phase);
}

/** File text quoted in a message: no line break or terminal control, cut (a message must not grow with the file). */
export const quoted = (v: string): string => escapeControl(clip(v, MAX_QUOTED));

/** A code for a message: ours with its name; another (the file's text) quoted. */
export function describe(code: string | null): string {
  if (code === null) return 'none';
  const n = Object.hasOwn(NAMES, code) ? NAMES[code] : undefined;
  return n ? `${code} (${n})` : quoted(code);
}

/**
 * Maps an automatic HIDL mark (no `[NN_..]` tag) to `NN_<layer>_<phase>`, or undefined when the
 * reference cannot map it (it contains `HIDL` but no known pattern: the reference aborts).
 */
export function hidlTag(mark: string): string | undefined {
  let layer: string | undefined;
  if (mark.includes('::client')) layer = mark.includes('notify') ? 'LX' : 'LI';
  else if (mark.includes('::server')) layer = mark.includes('notify') ? 'LX' : 'LD';
  else if (mark.includes('::passthrough')) layer = 'LI';
  else if (mark.includes('getCapabilities') || mark.includes('getSupportedOperations')) layer = 'LD';
  else if (!mark.includes('HIDL')) layer = 'LX';
  if (!layer) return undefined;
  let phase = 'PI';
  if (mark.includes('IAllocator')) phase = 'PU';
  else if (mark.includes('getCapabilities')) phase = 'PI';
  else if (mark.includes('prepareModel') || mark.includes('getSupportedOperations')) phase = 'PC';
  else if (mark.includes('IPreparedModelCallback')) phase = 'PC';
  else if (mark.includes('execute') || mark.includes('IExecutionCallback')) phase = 'PE';
  return `NN_${layer}_${phase}`;
}

/** Historical fix-ups of early tracepoints, applied to the mark text before anything else (§3). */
export function fixUpMark(mark: string): string {
  if (mark.includes('ANeuralNetworksEvent_free') || mark.includes('ANeuralNetworksExecution_free')) return mark.replaceAll('_PT', '_PE');
  if (mark.includes('getSupportedExtensions')) return mark.replaceAll('_PC', '_PI');
  if (mark.includes('[SW][NN_LA_PR]executeWithCompilation')) return mark.replaceAll('[SW]', '');
  return mark;
}

/**
 * The function name of a scope: the third `|` field with `[SUB]`, `[SW]` and the tag removed.
 * Begin/end times are kept per function name for the special cases of §6.
 */
export function functionName(mark: string): string {
  // The third `|` field, without splitting the whole mark.
  const a = mark.indexOf('|');
  const b = a < 0 ? -1 : mark.indexOf('|', a + 1);
  if (b < 0) return '';
  const c = mark.indexOf('|', b + 1);
  let f = c < 0 ? mark.slice(b + 1) : mark.slice(b + 1, c);
  if (f.includes('[NN_')) {
    f = f.replaceAll('[SUB]', '').replaceAll('[SW]', '');
    f = (f.split(']')[1] ?? '').replaceAll('[', '').replaceAll(']', '');
  }
  return f;
}
