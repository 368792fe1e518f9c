import type { FormatDescriptor } from '../formatDescriptor';

/**
 * Whether two runs can be compared, in the words both the CLI and the editor say it: of one format
 * only, and a format that has a comparison. undefined when they can.
 */
export function pairProblem(a: FormatDescriptor, b: FormatDescriptor): string | undefined {
  if (a.id !== b.id) return `A is ${a.displayName}, B is ${b.displayName}: diff compares two runs of one format`;
  return notComparable(a);
}

/** Why files of this format cannot be compared; undefined when they can. */
export function notComparable(f: FormatDescriptor): string | undefined {
  if (!f.diff || f.diff.unsupported) return `${f.displayName} files cannot be compared: ${f.diff?.unsupported ?? 'no comparison is defined for this format yet'}`;
  return undefined;
}
