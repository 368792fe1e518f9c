import type { Diagnostic } from '../common/diagnostic';
import { range } from '../common/diagnostic';
import { aggregateRun, type Aggregate } from './aggregate';
import type { Run } from './builder';
import type { Collector } from './collect';
import { rewriteTree } from './rewrite';
import type { LineLookup } from './lineMap';
import type { Scope } from './scope';
import { computeTimes, threadStats } from './threadTimes';
import { validateTree } from './validate';

export interface RunResult {
  run: Run;
  /** Numbers only for a complete run, as the reference prints none for an incomplete one. */
  aggregate?: Aggregate;
  /** Nesting violations in this run: the reference would abort on the first. */
  violations: number;
}

export interface Analysis {
  runs: RunResult[];
  diagnostics: Diagnostic[];
  opened: LineLookup<Scope>;
  closed: LineLookup<Scope>;
  noRuntime: boolean;
}

/** Everything after the first pass: trees, rewriting, validation and numbers, run by run. */
export function analyze(c: Collector): Analysis {
  const built = c.builder.finish(c.tracked, c.driverTgids);
  const diagnostics = [...c.diagnostics, ...built.diagnostics];
  const runs: RunResult[] = [];
  for (const run of built.runs) {
    const r = analyzeRun(run);
    diagnostics.push(...r.diagnostics);
    runs.push(r.result);
  }
  if (!c.seenRuntime) diagnostics.push(noRuntimeDiagnostic());
  return { runs, diagnostics, opened: built.opened, closed: built.closed, noRuntime: !c.seenRuntime };
}

/** One run after its trees are built: §4 rewriting, §5 validation, §6 numbers. */
export function analyzeRun(run: Run): { result: RunResult; diagnostics: Diagnostic[] } {
  let violations = 0;
  const diagnostics: Diagnostic[] = [];
  for (const t of run.threads.values()) {
    if (t.summary) {
      // Settled as the trace was read (settle.ts): its numbers are in t.stats already.
      violations += t.summary.violations;
      for (const d of t.summary.diagnostics) diagnostics.push(d);
      continue;
    }
    rewriteTree(t.root);
    const v = validateTree(t.root, t.pid);
    violations += v.length;
    diagnostics.push(...v);
    computeTimes(t.root);
    t.stats = threadStats(t);
  }
  return { result: { run, violations, aggregate: run.complete ? aggregateRun(run) : undefined }, diagnostics };
}

export function noRuntimeDiagnostic(): Diagnostic {
  return { range: range(0, 0, 0), severity: 'warning', code: 'nnapi.no-runtime',
    message: 'No NNAPI Runtime trace present (no mark contains NN_LR) - check your systrace setup: capture with the NNAPI tracing enabled (e.g. `debug.nn.systrace` and the app\'s trace category).' };
}
