import type { TimelineModel } from './model';
import { isChromeTraceFile } from '../chrome/format';
import { isSystraceFile } from '../nnapi/format';
import { InferscopeTimelineBuilder } from './inferscopeTrace';
import { ChromeTimelineBuilder } from './chromeTrace';
import { NnapiTimelineBuilder } from './nnapiTrace';
import { NpuTimelineBuilder } from './npuTrace';

/** Builds a timeline from a file's lines, fed in order, so a streamed file is never held whole. */
export interface TimelineBuilder {
  addLine(text: string, lineNo: number): void;
  /** The same line as UTF-8 bytes `[s, e)`, for builders that read bytes (the others get `addLine`). */
  addLineBytes?(b: Uint8Array, s: number, e: number, lineNo: number, decode: (b: Uint8Array, s: number, e: number) => string): void;
  /**
   * A builder of one JSON document may take a file's text in pieces of any size instead of lines
   * (then only so): a compact document is one line, longer than one string can be.
   */
  addText?(text: string): void;
  /** Before `addText`: the text's size known beforehand (from the file), so a big one is read streamed from the start. */
  expectChars?(n: number): void;
  /**
   * The model of the lines so far; the builder can go on. `preview`: a first look at a large file
   * while the rest is read (checks that need the whole file may be left out).
   */
  finish(preview?: boolean): TimelineModel;
}

export interface BuilderOptions {
  /** Whether to compute the Summary's metrics alongside (default true); an export has no use for them. */
  metrics?: boolean;
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
export function timelineBuilderFor(fileName: string, firstLine: string, opts: BuilderOptions = {}): TimelineBuilder | undefined {
  // By name, or (untitled documents, other extensions) by a first line that is an NPU trace event;
  // never a .json by content, as the format registry decides (core/formats.ts): a one-line Chrome
  // trace exported from an NPU trace holds "event_type" in its first events' args.
  if (isSystraceFile(fileName, firstLine)) return new NnapiTimelineBuilder();
  if (/\.trace\.jsonl(\.gz)?$/i.test(fileName) || (!/\.json(\.gz)?$/i.test(fileName) && /^\s*\{.*"event_type"\s*:/.test(firstLine))) return new NpuTimelineBuilder(opts);
  if (isChromeTraceFile(fileName, firstLine)) return new ChromeTimelineBuilder();
  // An InferScope trace by name, or a .json of another format's name opening an object (one detected
  // by its keys: the builder says so when it is not a trace).
  // Gzipped too: a file on disk is read decompressed.
  const name = fileName.replace(/\.gz$/i, '');
  if (/\.inferscope\.json$/i.test(name) || (/\.json$/i.test(name) && !/\.cmdq\.json$/i.test(name) && /^\uFEFF?\s*\{/.test(firstLine))) {
    return new InferscopeTimelineBuilder();
  }
  return undefined;
}

/** Builds a whole model from lines already in memory (an open document, a test fixture). */
export function buildTimeline(fileName: string, lines: readonly string[]): TimelineModel | undefined {
  const b = timelineBuilderFor(fileName, lines[0] ?? '');
  if (!b) return undefined;
  for (let i = 0; i < lines.length; i++) b.addLine(lines[i], i);
  return b.finish();
}
