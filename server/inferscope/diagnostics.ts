import type { Diagnostic } from '../../core/common/diagnostic';
import type { DiagnosticSettings } from '../../core/common/settings';
import type { InferscopeDocument } from '../../core/inferscope/document';

/** Computed once per document version and settings (cached on the model), capped while produced. */
export function inferscopeDiagnostics(model: InferscopeDocument, settings: DiagnosticSettings): Diagnostic[] {
  return model.capped(settings, { kernelOverlap: settings.inferscopeKernelOverlap }).diagnostics;
}
