/**
 * Messages between the CMDQ dependency graph panel's host (extension) and its page. The page's
 * messages are untrusted input: the host reads them only through `parseGraphPageMessage`.
 */
import type { GraphProblem } from '../core/cmdq/graph/problems';
import type { GraphViewModel } from '../core/cmdq/graph/view';

/** Host → page. */
export type GraphHostMessage =
  /** A new graph for the file (after opening or an edit), or null with a reason when there is none. */
  | { type: 'graph'; fileName: string; model: GraphViewModel }
  /** The checker's problems for the graph last sent (they come after it: the checks run after the first paint). */
  | { type: 'problems'; problems: GraphProblem[] }
  | { type: 'error'; message: string }
  /** The editor cursor is on this entry (by index in `cmdq`): select its node. */
  | { type: 'select'; index: number };

/** Page → host. */
export type GraphPageMessage =
  /** The page listens: send the graph. */
  | { type: 'ready' }
  /** A node was clicked: select its entry in the editor. */
  | { type: 'reveal'; index: number };

const isIndex = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

export function parseGraphPageMessage(raw: unknown): GraphPageMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  if (m.type === 'ready') return { type: 'ready' };
  if (m.type === 'reveal' && isIndex(m.index)) return { type: 'reveal', index: m.index };
  return undefined;
}
