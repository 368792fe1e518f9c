import type { CmdqDocument } from '../../core/cmdq/document';
import type { Diagnostic } from '../../core/common/diagnostic';
import type { DiagnosticSettings } from '../../core/common/settings';

/** Computed once per document version (cached on the model) and capped by the settings. */
export function cmdqDiagnostics(model: CmdqDocument, settings: DiagnosticSettings): Diagnostic[] {
  return model.diagnostics(settings);
}
