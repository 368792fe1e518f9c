import { escapeControl } from '../../core/common/escape';
import { INCOMPLETE, viewTable } from '../../core/nnapi/summary';
import type { NnapiRun, NnapiSummaryResult, NnapiViewKind } from '../../protocol/nnapi';

function viewTitle(v: NnapiViewKind, benchmark: boolean): string {
  const what = v.totalTimes ? 'total times' : 'self-times';
  return v.perExecution ? `${what}, per execution${benchmark ? ' (benchmark phase)' : ''}` : `${what}, all phases`;
}

function runBlock(r: NnapiRun): string[] {
  // The mark is the file's text: its controls are shown escaped in the document.
  const head = `Run ${r.index + 1}: ${escapeControl(r.startingMark) || '(no [NN_LA_PO] mark)'}${r.startLine >= 0 ? `   (line ${r.startLine + 1})` : ''}`;
  const out = [head, '-'.repeat(Math.min(head.length, 139))];
  if (!r.complete) {
    out.push(`${INCOMPLETE}: a scope is still open at the end of this run (see nnapi.unclosed-begin in Problems).`, '');
    return out;
  }
  const c = r.executionCounts;
  out.push(`Executions: ${c.PO}${r.hasWarmupAndBenchmark ? ` overall; warm-up ${c.PWU}, benchmark ${c.PBM}` : ''}`);
  if (r.violations) out.push(`Warning: ${r.violations} nesting violation(s) in this run: the reference parser would refuse it; the numbers are shown anyway.`);
  for (const v of r.views) out.push('', `[${viewTitle(v, r.hasWarmupAndBenchmark)}]`, ...viewTable(r, v).slice(1));
  out.push('');
  return out;
}

/** The read-only summary document: every run, in the four views the reference parser offers. */
export function renderSummary(result: NnapiSummaryResult, fileName: string): string {
  if (!result.ok) return `NNAPI timing summary — ${fileName}\n\nNo summary: ${result.reason}\n`;
  const out = [`NNAPI timing summary — ${fileName}`, ''];
  out.push(`Times in ms, wall-clock. '-' = 0, 'n/a' = missing, '*' = total ignoring missing values.`);
  if (result.noRuntime) out.push('No NNAPI Runtime trace present (no NN_LR mark) - check your systrace setup.');
  if (result.errors || result.warnings) out.push(`Problems: ${result.errors} error(s), ${result.warnings} warning(s) — see the Problems panel.`);
  out.push('');
  for (const r of result.runs) out.push(...runBlock(r));
  return out.join('\n');
}
