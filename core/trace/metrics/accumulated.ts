import type { Id } from '../line';
import type { Intervals } from './intervals';

// The state `MetricsCollector` accumulates and `summarize` turns into numbers: in its own file, so
// neither imports the other for it.

/** Per (npu, core): the busy intervals of its engines and the spans of its commands. */
export interface CoreAcc {
  npu: number;
  core: number;
  te: Intervals;
  ve: Intervals;
  dma: Intervals;
  commands: Intervals;
}

export interface ChannelAcc {
  bytes: number;
  busy: Intervals;
}

/** A phase or a layer: its commands and the engine time of events whose command belongs to it. */
export interface GroupAcc {
  commands: number;
  latencies: number[];
  first: number;
  last: number;
  te: Intervals;
  ve: Intervals;
  dma: Intervals;
  /** The longest commands, longest first (at most TOP_COMMANDS): the evidence of findings. */
  top: { cmd: Id; start: number; end: number }[];
}

export interface BankAcc {
  accesses: number;
  conflicts: number;
  firstConflict: number;
  lastConflict: number;
}

/** The accumulated state that `summarize` turns into numbers. */
export interface Accumulated {
  from: number;
  to: number;
  events: number;
  unpaired: number;
  nsPerCycle: number | undefined;
  cores: Map<string, CoreAcc>;
  dmaChannels: Map<number, ChannelAcc>;
  dmaDirections: Map<string, number>;
  dramChannels: Map<number, ChannelAcc>;
  nocLinks: Map<number, ChannelAcc>;
  sramAccesses: number;
  sramConflicts: number;
  banks: Map<number, BankAcc>;
  phases: Map<string, GroupAcc>;
  layers: Map<string, GroupAcc>;
}
