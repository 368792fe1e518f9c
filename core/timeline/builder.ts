import type { TimelineModel } from './model';

/** Builds a timeline from a file's lines, fed in order, so a streamed file is never held whole. */
/** Where a part read by another thread starts: its line and character, and the characters its reader read first. */
export interface PartStart {
  line: number;
  character: number;
  prefix: number;
}

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
  /** After the last `addText`, before `finish`: `cutOff` when the text was cut (a truncated .gz), whose cut line is then left out. */
  endText?(cutOff: boolean): void;
  /**
   * Instead of the text: what its format's `timelineReader` posted, batch by batch in order; `from`:
   * the reader read a part of the text that starts there, after `prefix` characters on its first line.
   */
  replayBatch?(batch: unknown, from?: PartStart): void;
  /**
   * After the text so far (`addText`): the form of a part that may start where it ends (it ends
   * between two of its format's elements there), else undefined. The text may go on after.
   */
  atPartBoundary?(): { form: string; at: PartStart } | undefined;
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
