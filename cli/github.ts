import type { Severity } from '../core/common/diagnostic';
import { escapeControl } from '../core/common/escape';
import type { FileResult, RunFailure } from './sarif';

// GitHub Actions workflow commands (`::error file=…::message`), which the runner turns into
// annotations on the pull request. A file's own text must not end the command or start another.

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' };

/** A message as GitHub reads a command's data: `%`, CR and LF percent-encoded. */
export const githubData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A property value (`file=`, `title=`): as data, and `:` and `,` too, which end the value. */
export const githubProperty = (s: string) => githubData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * One line, nothing a terminal acts on: the log shows the raw line as well as the annotation. Line
 * breaks and bidi controls are shown as escapes (`\x0a`, `\u202e`), as in the text output.
 */
const oneLine = escapeControl;

/**
 * One command per diagnostic, 1-based as GitHub wants. Columns only when the range is on one
 * line: GitHub ignores `col`/`endColumn` across lines. `endColumn` is the last character's column.
 */
export function githubAnnotations(results: readonly FileResult[], failures: readonly RunFailure[] = []): string[] {
  // A file that could not be read fails the run (exit 2): say so where the run's annotations are.
  const out = failures.map((f) => `::error file=${githubProperty(oneLine(f.file.replace(/\\/g, '/')))},title=npu-trace::${githubData(oneLine(f.message))}`);
  for (const r of results) {
    const file = githubProperty(oneLine(r.file.replace(/\\/g, '/')));
    for (const d of r.diagnostics) {
      const { start, end } = d.range;
      const oneRow = start.line === end.line;
      const where = [`file=${file}`, `line=${start.line + 1}`, oneRow ? `col=${start.character + 1}` : '', `endLine=${end.line + 1}`,
        oneRow ? `endColumn=${Math.max(end.character, start.character + 1)}` : '', `title=${githubProperty(oneLine(d.code))}`];
      out.push(`::${COMMAND[d.severity]} ${where.filter(Boolean).join(',')}::${githubData(oneLine(d.message))}`);
    }
  }
  return out;
}
