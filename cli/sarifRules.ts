// The SARIF rules of `npu-trace check --format sarif`: one per diagnostic code a checked format
// reports, its help the example of the manual's table (both come from the formats' code lists).
import type { CodeDoc } from '../core/common/codeDoc';
import type { Severity } from '../core/common/diagnostic';
import { FILE_CODES } from '../core/common/fileCodes';
import { FORMATS } from '../core/formats';

export interface RuleDoc {
  id: string;
  severity: Severity;
  short: string;
  helpMarkdown: string;
  helpText: string;
}

/** `*…*` emphasis and `` `…` `` code spans as plain text. */
const plain = (md: string) => md.replace(/`([^`]*)`/g, '$1').replace(/\*([^*]*)\*/g, '$1');

/** A rule's short description: its format and the words of its code (`trace.unmatched-end` → "NPU trace: unmatched end"). */
function short(code: string, formatName: string): string {
  const dot = code.indexOf('.');
  return dot < 0 ? 'Problems not shown: over the --max-problems cap' : `${formatName}: ${code.slice(dot + 1).replace(/-/g, ' ')}`;
}

/** One rule per code, in the lists' order; a code with several cases gets one rule whose help lists them all. */
export function rulesOf(sets: readonly { name: string; codes: readonly CodeDoc[] }[]): RuleDoc[] {
  const byCode = new Map<string, { severity: Severity; name: string; examples: string[] }>();
  for (const s of sets) {
    for (const c of s.codes) {
      const r = byCode.get(c.code);
      if (r) r.examples.push(c.example);
      else byCode.set(c.code, { severity: c.severity, name: s.name, examples: [c.example] });
    }
  }
  return [...byCode].map(([id, r]) => ({
    id,
    severity: r.severity,
    short: short(id, r.name),
    helpMarkdown: r.examples.join('\n\n'),
    helpText: r.examples.map(plain).join('\n'),
  }));
}

export const RULES: readonly RuleDoc[] = rulesOf([...FORMATS.filter((f) => f.createChecker).map((f) => ({ name: f.displayName, codes: f.codes })), { name: 'File', codes: FILE_CODES }]);
