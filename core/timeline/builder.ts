import type { TimelineModel } from './model';
import { NpuTimelineBuilder } from './npuTrace';

/** Builds a timeline from a file's lines, fed in order, so a streamed file is never held whole. */
export interface TimelineBuilder {
  addLine(text: string, lineNo: number): void;
  /** The model of the lines so far; the builder can go on (used for a preview of large files). */
  finish(): TimelineModel;
}

/**
 * Lines after which a large file shows a preview while the rest is read: on a 1M-event trace the
 * first paint then comes within a second instead of after the whole file.
 */
export const PREVIEW_LINES = 150_000;

/**
 * The builder for a file, by name and first line. Formats without a timeline get undefined.
 * A new format adds one entry here.
 */
export function timelineBuilderFor(fileName: string, _firstLine: string): TimelineBuilder | undefined {
  if (/\.jsonl(\.gz)?$/i.test(fileName) || /\.json(\.gz)?$/i.test(fileName)) return new NpuTimelineBuilder();
  return undefined;
}

/** Builds a whole model from lines already in memory (an open document, a test fixture). */
export function buildTimeline(fileName: string, lines: readonly string[]): TimelineModel | undefined {
  const b = timelineBuilderFor(fileName, lines[0] ?? '');
  if (!b) return undefined;
  for (let i = 0; i < lines.length; i++) b.addLine(lines[i], i);
  return b.finish();
}
