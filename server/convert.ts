import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { Diagnostic, Severity } from '../core/common/diagnostic';
import { escapeControl } from '../core/common/escape';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(d: Diagnostic, uri: string): LspDiagnostic {
  return {
    range: d.range,
    severity: SEVERITY[d.severity],
    code: d.code,
    source: 'npu-trace',
    message: d.message,
    relatedInformation: d.related?.map((r) => ({ location: { uri, range: r.range }, message: r.message })),
  };
}

/** Longest part of an error's message shown in `server.internal-error`. */
const MAX_ERROR_TEXT = 500;

/**
 * The diagnostic published when a format threw on this text, so the editor is told why no
 * problems are listed instead of keeping the previous version's. The message may quote the file.
 */
export function internalErrorDiagnostic(err: unknown): Diagnostic {
  const raw = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const text = escapeControl(raw.length > MAX_ERROR_TEXT ? `${raw.slice(0, MAX_ERROR_TEXT)}…` : raw);
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 'error',
    code: 'server.internal-error',
    message: `The checker failed on this file, so its problems are not listed (please report it): ${text}`,
  };
}
