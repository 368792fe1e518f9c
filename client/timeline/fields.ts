import { scanLine } from '../../core/trace/scanner';

/**
 * The JSON fields of one source line as [key, raw JSON value], for the details pane. Raw source
 * text, so 64-bit ids keep their exact digits; a broken line gives the fields before the break.
 */
export function lineFields(text: string): [string, string][] {
  const scan = scanLine(text);
  return scan.fields.map((f) => [f.key, text.slice(f.valueStart, f.valueEnd)]);
}
