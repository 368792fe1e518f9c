/** What the timeline page holds between messages: the view of the model shown and what came with it. */
import type { TraceStats } from '../core/trace/metrics/types';
import type { HostMessage } from '../protocol/timeline';
import type { ViewState } from './state';
import { readTheme, type Theme } from './theme';

export interface RangeStats {
  from: number;
  to: number;
  /** null until the host has answered. */
  stats: TraceStats | null;
  message: string;
}

export const session: {
  /** The model shown and the view of it; undefined until the first model. */
  state: ViewState | undefined;
  uri: string;
  /** Whether the model shown is the preview of a large file (the complete one replaces it). */
  previewShown: boolean;
  /** The colours of the VS Code theme (re-read when it changes). */
  theme: Theme;
  /** The whole file's metrics (with the complete model). */
  fileStats: TraceStats | undefined;
  /** The last range asked for and its metrics. */
  rangeStats: RangeStats | undefined;
  /** Whether the Summary tab shows the range's tables rather than the file's. */
  summaryOfRange: boolean;
  /** The file's name without its trace suffixes, for the names of saved tables. */
  baseName: string;
  /** A `revealLines` that came before the complete model: shown when that model is in. */
  pendingReveal: readonly number[] | undefined;
  /** The baseline pinned for the file's format (the desktop host says; undefined: none can be). */
  pinned: Extract<HostMessage, { type: 'baselinePinned' }> | undefined;
  /** The comparison with it, or why there is none; undefined until asked, `asked` while under way. */
  baseline: Extract<HostMessage, { type: 'baselineDiff' }> | 'asked' | undefined;
} = {
  state: undefined, uri: '', previewShown: false, theme: readTheme(), fileStats: undefined, rangeStats: undefined,
  summaryOfRange: false, baseName: 'trace', pendingReveal: undefined, pinned: undefined, baseline: undefined,
};
