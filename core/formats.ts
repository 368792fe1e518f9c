import type { FormatDefinition } from './format';
import { traceFormat } from './trace/format';
import { cmdqFormat } from './cmdq/format';

/** Formats the command line can check, in the order they are tried. */
export const FORMATS: readonly FormatDefinition[] = [traceFormat, cmdqFormat];

export function formatFor(fileName: string, firstLine: string): FormatDefinition | undefined {
  return FORMATS.find((f) => f.matches(fileName, firstLine));
}
