import type { Severity } from './diagnostic';

/**
 * One diagnostic code as the manual and the SARIF rules describe it: `example` is Markdown, an
 * input and the message it gets (`` `input` → *message* ``). A code with several cases has several
 * entries, in the order the manual lists them.
 */
export interface CodeDoc {
  code: string;
  severity: Severity;
  example: string;
}
