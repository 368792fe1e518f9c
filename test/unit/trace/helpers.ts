import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../../../core/common/diagnostic';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'trace');

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/**
 * The [start, end) character range of `token` on `line`, searched after the first `after` (so
 * `valueRange(l, '"cmd_id":', '7')` finds the 7 of cmd_id, not some other 7). Throws when absent,
 * so a fixture edit that moves the token fails loudly instead of matching something else.
 */
export function tokenRange(line: string, token: string, after = ''): [number, number] {
  const from = after ? line.indexOf(after) : 0;
  if (from < 0) throw new Error(`'${after}' not on line: ${line}`);
  const at = line.indexOf(token, from + after.length);
  if (at < 0) throw new Error(`'${token}' not on line after '${after}': ${line}`);
  return [at, at + token.length];
}

/** Order diagnostics on the same spot by code, so tests do not depend on emission order. */
export function byPosition(ds: readonly Diagnostic[]): Diagnostic[] {
  return [...ds].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || a.code.localeCompare(b.code));
}

/** A diagnostic's range is on one line and inside it; related ranges likewise. */
export function assertSaneRanges(ds: readonly Diagnostic[], lines: readonly string[]): void {
  const check = (r: Diagnostic['range'], what: string) => {
    const { start, end } = r;
    if (start.line !== end.line) throw new Error(`${what}: spans lines ${start.line}-${end.line}`);
    if (start.line < 0 || start.line >= Math.max(1, lines.length)) throw new Error(`${what}: line ${start.line} outside 0..${lines.length - 1}`);
    const len = lines[start.line]?.length ?? 0;
    if (!(start.character >= 0 && start.character <= end.character && end.character <= len)) {
      throw new Error(`${what}: bad range ${start.character}..${end.character} on a line of length ${len}`);
    }
  };
  for (const d of ds) {
    check(d.range, `${d.code} "${d.message}"`);
    for (const r of d.related ?? []) check(r.range, `related of ${d.code}`);
  }
}
