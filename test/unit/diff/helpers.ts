import { compareRuns } from '../../../core/diff/compare';
import type { DiffResult, DiffRun, DiffSupport } from '../../../core/diff/types';

/** A run of a line format, fed line by line as the CLI's text path feeds it. */
export function runOfLines(diff: DiffSupport, lines: Iterable<string>): DiffRun {
  const c = diff.lines!();
  let n = 0;
  for (const l of lines) c.add(l, ++n);
  return c.finish();
}

export const compare = (a: DiffRun, b: DiffRun, format: string, kinds?: string[]): DiffResult =>
  compareRuns({ file: 'a', format, run: a }, { file: 'b', format, run: b }, { kinds });

export const reported = (r: DiffResult): string[] => r.groups.filter((g) => g.reported).map((g) => `${g.kind}:${g.key}`);
