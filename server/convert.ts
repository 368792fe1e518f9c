import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { Diagnostic, Severity } from '../core/common/diagnostic';

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
