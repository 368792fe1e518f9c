// The diagnostic codes of NNAPI systraces, each with an example and its message. The manual's table
// (docs/formats/nnapi-systrace.md) and the SARIF rules of `npu-trace check` are made from this list (npm run gen:docs).
import type { CodeDoc } from '../common/codeDoc';

export const NNAPI_CODES: readonly CodeDoc[] = [
  { code: "nnapi.phase-nesting", severity: "error", example: "`B|1|[NN_LR_PC]compile` inside `B|1|[NN_LR_PP]prepare` → *'compile' … (layer LR (Runtime), phase PC (Compilation)) is nested in 'prepare' (layer LR, phase PP, line 6): phase rule broken — inside PP (Preparation) only PP, PU, PI may nest. If the function switches phase here, open the new phase with [SW] …; if this time belongs elsewhere, mark the scope [SUB] …*" },
  { code: "nnapi.phase-nesting", severity: "error", example: "`B|1|[NN_LU_PU]helper` with no phased scope around it → *'helper' … has phase PU (unspecified: takes its caller's), but no enclosing scope has a phase … (the reference parser crashes here)*" },
  { code: "nnapi.layer-nesting", severity: "error", example: "`B|1|[NN_LA_PC]a` inside `B|1|[NN_LR_PC]r` → *'a' … is nested in 'r' …: layer rule broken — a LR (Runtime) scope may contain only LR, LU, LI, LC. If this time belongs to LA rather than LR, mark the scope [SUB] …*" },
  { code: "nnapi.unmatched-end", severity: "error", example: "an `E` on a tracked thread with no open scope → *this E closes nothing: thread 5143 has no open scope here. Check that the trace includes the application's full lifecycle …* (also for a `[SW]` with nothing to close)" },
  { code: "nnapi.unclosed-begin", severity: "error", example: "`B|1|[NN_LR_PP]open` never closed before the next `[NN_LA_PO]` or the end → *open (LR_PP) on thread 1 is still open at the end of the run …: no E closes it, so the run gets no statistics (reference: 'Incomplete trace')*" },
  { code: "nnapi.unparsed-mark", severity: "error", example: "`… 100: tracing_mark_write: B|1|[NN_LR_PP]y` (no fraction in the timestamp) → *this row mentions '[NN_' but is not a tracing_mark_write row the parser can read …*; also a HIDL mark the automatic mapping cannot place (`B|1|HIDL::IFoo::bar`); as a **warning**, a tag with nothing after it (`B|1|[NN_LR_PC]`), which the reference silently ignores" },
  { code: "nnapi.unknown-tag", severity: "error", example: "`B|1|[NN_LQ_PP]a` → *unknown code in [NN_LQ_PP]: layer LQ is not one of LA LR LI LD LC LO LU LX …*; `B|1|[NN_LR]c` → *[NN_LR] is not a tag of the form [NN_<layer>_<phase>] …*" },
  { code: "nnapi.line-too-long", severity: "warning", example: "a line over the line limit (see *Bounded lines* above) → *Line 7 is 9 MB long, over the limit of 8 MB (…): it is not checked*; a warning, since in an HTML export such a line is likely a script" },
  { code: "nnapi.no-runtime", severity: "warning", example: "a trace with no `NN_LR` mark → *No NNAPI Runtime trace present (no mark contains NN_LR) - check your systrace setup …* (line 1)" },
];
