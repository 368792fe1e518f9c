import { createScanner } from 'jsonc-parser';
import type { InferscopeKind } from './model';

/** Whether a first line already shows an InferScope marker key (a compact file), for the CLI. */
export function looksLikeInferscopeStart(firstLine: string): boolean {
  return /^\uFEFF?\s*\{\s*"(format_version|analysis_version|report_type)"\s*:/.test(firstLine);
}

/**
 * Whether the start of a file (its first line, or its first MB) is a trace as InferScope's Profiler
 * saves it: `{"events": [` whose first event's first key is a `type` that Profiler writes (every
 * event it builds starts with `type`; json.dump keeps that order). For the format detection by
 * content; pure, linear (no backtracking: each `\s*` sits between fixed characters).
 */
export function looksLikeProfilerStart(head: string): boolean {
  return /^\uFEFF?\s*\{\s*"events"\s*:\s*\[\s*\{\s*"type"\s*:\s*"(?:cpu_call|cpu_return|scope_enter|scope_exit|gpu_kernel|h2d_copy|d2h_copy|instant|cpu_preprocessing)"/.test(head);
}

const MARKERS: Record<string, InferscopeKind> = { format_version: 'trace', analysis_version: 'analysis', report_type: 'report' };

/**
 * What a JSON document's top-level keys say it is (or, for the Profiler's layout, its first event:
 * `looksLikeProfilerStart`): `format_version` with `events` a trace,
 * `analysis_version` an analysis result, `report_type` a report. Looks at top-level keys only and
 * gives up after `maxTokens`, so it costs nothing on a large unrelated JSON file.
 */
export function topLevelInferscopeKind(text: string, maxTokens = 100000): InferscopeKind | undefined {
  // The Profiler's save has no marker key: its first event says what it is.
  if (looksLikeProfilerStart(text)) return 'trace';
  const s = createScanner(text, true);
  if (text.charCodeAt(0) === 0xfeff) s.setPosition(1);
  let depth = 0;
  let expectKey = false;
  let version = false;
  let events = false;
  for (let n = 0; n < maxTokens; n++) {
    const k = s.scan();
    if (k === 17) break; // EOF
    if (k === 12 || k === 13 || k === 14 || k === 15) continue; // comments, line breaks, blanks
    if (depth === 0 && k !== 1) return undefined;
    if (k === 1 || k === 3) {
      depth++;
      expectKey = k === 1 && depth === 1;
    } else if (k === 2 || k === 4) {
      if (--depth <= 0) break;
    } else if (k === 5) {
      if (depth === 1) expectKey = true;
    } else if (k === 10 && depth === 1 && expectKey) {
      expectKey = false;
      const key = s.getTokenValue();
      if (key === 'analysis_version' || key === 'report_type') return MARKERS[key];
      if (key === 'format_version') version = true;
      if (key === 'events' || key === 'trace_metadata' || key === 'relationships') events = true;
      if (version && events) return 'trace';
    }
  }
  return version && events ? 'trace' : undefined;
}
