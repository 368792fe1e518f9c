import type { FormatDefinition } from './format';
import { chromeFormat } from './chrome/format';
import { cmdqFormat } from './cmdq/format';
import { inferscopeFormat } from './inferscope/format';
import { nnapiFormat } from './nnapi/format';
import { traceFormat } from './trace/format';

/** Formats the command line can check, in the order they are tried. */
export const FORMATS: readonly FormatDefinition[] = [traceFormat, cmdqFormat, nnapiFormat, inferscopeFormat, chromeFormat];

export function formatFor(fileName: string, firstLine: string): FormatDefinition | undefined {
  return FORMATS.find((f) => f.matches(fileName, firstLine));
}
