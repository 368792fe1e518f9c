import { compareDiagnostics, type Diagnostic, type Severity } from './diagnostic';

export type SeverityOverride = Severity | 'off';

export interface DiagnosticSettings {
  /** Per-code severity, e.g. `{ "trace.time-backwards": "error" }`; `off` hides the code. */
  severity: Record<string, SeverityOverride>;
  /** At most this many diagnostics per file; the rest are summarised in one. */
  maxProblems: number;
  /** Longer lines of a line-based file are skipped with one diagnostic; unset: `DEFAULT_MAX_LINE_BYTES`. */
  maxLineBytes?: number;
  /** InferScope `kernel-overlap`: kernels of one stream (default) or of one whole device must not overlap. */
  inferscopeKernelOverlap?: 'stream' | 'device';
}

export const defaultDiagnosticSettings: DiagnosticSettings = { severity: {}, maxProblems: 1000 };

const SEVERITIES = new Set<string>(['error', 'warning', 'information', 'hint', 'off']);

/** Settings arrive from users' JSON: anything unexpected falls back to the default. */
export function normalizeSettings(raw: unknown): DiagnosticSettings {
  const out: DiagnosticSettings = { severity: {}, maxProblems: defaultDiagnosticSettings.maxProblems };
  if (typeof raw !== 'object' || raw === null) return out;
  const r = raw as { severity?: unknown; maxProblems?: unknown; maxLineBytes?: unknown; inferscopeKernelOverlap?: unknown };
  if (typeof r.severity === 'object' && r.severity !== null) {
    for (const [code, sev] of Object.entries(r.severity)) {
      if (typeof sev === 'string' && SEVERITIES.has(sev)) out.severity[code] = sev as SeverityOverride;
    }
  }
  if (typeof r.maxProblems === 'number' && Number.isInteger(r.maxProblems) && r.maxProblems > 0) {
    out.maxProblems = r.maxProblems;
  }
  if (typeof r.maxLineBytes === 'number' && Number.isInteger(r.maxLineBytes) && r.maxLineBytes > 0) {
    out.maxLineBytes = r.maxLineBytes;
  }
  if (r.inferscopeKernelOverlap === 'stream' || r.inferscopeKernelOverlap === 'device') out.inferscopeKernelOverlap = r.inferscopeKernelOverlap;
  return out;
}

/**
 * The shown problems of a check of `found` (capped by `finalizeDiagnostics`) and whether any is an
 * error; `dropped` are the problems a checker found and did not keep. The exit status counts every
 * error, also those the cap leaves out: an error after 1000 warnings must still fail a CI run.
 */
export function checkResult(found: Diagnostic[], settings: DiagnosticSettings, dropped = { count: 0, hasError: false }): { diagnostics: Diagnostic[]; hasError: boolean } {
  return { diagnostics: finalizeDiagnostics(found, settings, dropped.count), hasError: dropped.hasError || found.some((d) => d.severity === 'error') };
}

/**
 * Applies severity overrides, sorts by position and caps the list with one summary diagnostic on
 * line 1. `alreadyDropped` counts problems a checker found and did not keep (it capped while producing).
 */
export function finalizeDiagnostics(diags: Diagnostic[], settings: DiagnosticSettings, alreadyDropped = 0): Diagnostic[] {
  const kept: Diagnostic[] = [];
  for (const d of diags) {
    const o = settings.severity[d.code];
    if (o === 'off') continue;
    kept.push(o ? { ...d, severity: o } : d);
  }
  kept.sort(compareDiagnostics);
  const max = settings.maxProblems;
  if (kept.length <= max && alreadyDropped === 0) return kept;
  const shown = kept.slice(0, max);
  const rest = Math.max(0, kept.length - max) + alreadyDropped;
  shown.unshift({
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 'information',
    code: 'too-many-problems',
    message: `${rest} further problems not shown (limit ${max}, setting npuTrace.diagnostics.maxProblems)`,
  });
  return shown;
}
