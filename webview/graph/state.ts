/** What the CMDQ graph page holds: the queue shown with its layouts and selection, and the view transform of each mode. */
import type { GraphViewModel } from '../../core/cmdq/graph/view';
import type { GraphLayout, Orientation } from './layout';
import type { ScheduleLayout } from './schedule';

/** Edges drawn per frame at most (a zoomed-out 100k graph shows its shape without them). */
export const MAX_EDGES_DRAWN = 20_000;
/** Schedule rows: the engine names' column, row pitch and bar height (CSS pixels). */
export const LABEL_W = 100, SROW_H = 28, BAR_H = 20;
/** Height of the schedule's time axis (cycles) above its rows. */
export const AXIS_H = 22;

export interface GraphState {
  model: GraphViewModel;
  layout: GraphLayout;
  schedule: ScheduleLayout;
  critical: Uint8Array;
  selected: number;
  ancestors: Uint8Array | undefined;
  descendants: Uint8Array | undefined;
  /** The checker's problems by entry, as the Problems panel lists them. */
  problems: Map<number, { code: string; severity: string }[]>;
  /** The edges a problem sits on (a cycle, a forward dep): drawn over the others, red for an error. */
  problemEdges: { from: number; to: number; error: boolean }[];
}

export type Mode = 'graph' | 'schedule';

export const page: {
  /** The queue shown; undefined until the first `graph` message. */
  st: GraphState | undefined;
  /** The graph by depth, or the schedule (rows per engine); each keeps its own view. */
  mode: Mode;
  /** How the graph's levels run: chosen by each fit for the panel's shape. */
  orient: Orientation;
  /** View transform of the mode shown: screen = world × scale + offset (CSS pixels). */
  scale: number;
  ox: number;
  oy: number;
  /** The other mode's transform, kept while it is not shown. */
  saved: Record<Mode, { scale: number; ox: number; oy: number }>;
  /** The Estimated vs measured table's sort; by measured/estimated, largest first. */
  tableSort: { col: number; dir: 1 | -1 };
} = {
  st: undefined, mode: 'graph', orient: 'lr', scale: 1, ox: 20, oy: 10,
  saved: { graph: { scale: 1, ox: 20, oy: 10 }, schedule: { scale: 1, ox: LABEL_W, oy: 10 } },
  tableSort: { col: 5, dir: -1 },
};

export function nameOf(m: GraphViewModel, i: number): string {
  return m.opcode[i] >= 0 ? m.opcodes[m.opcode[i]] : '(no opcode)';
}
