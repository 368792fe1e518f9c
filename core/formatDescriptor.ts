import type { CodeDoc } from './common/codeDoc';
import type { Diagnostic, Severity } from './common/diagnostic';
import type { DiffSupport } from './diff/types';
import type { DiagnosticSettings } from './common/settings';
import type { FileHead } from './fileHead';
import type { BuilderOptions, TimelineBuilder } from './timeline/builder';
import type { TimelineModel } from './timeline/model';

/** A checker fed one line at a time, so files of any size can be streamed through it. */
export interface LineChecker {
  add(line: string, lineNo: number): void;
  /**
   * Optional fast path for streamed files: the line's UTF-8 bytes `[s, e)` (no terminator), and a
   * decoder to fall back on. The bytes are only valid during the call.
   */
  addBytes?(bytes: Uint8Array, s: number, e: number, lineNo: number, decode: (b: Uint8Array, s: number, e: number) => string): void;
  /**
   * Optional fast path for streamed files: the line `[start, end)` of a decoded chunk; `chunk`
   * numbers the chunk (-1: a text made for this line alone). Used when there is no `addBytes`.
   */
  addIn?(text: string, start: number, end: number, lineNo: number, chunk: number): void;
  /** All diagnostics, unsorted; uncapped unless the checker was made with `maxProblems`. */
  finish(): Diagnostic[];
  /**
   * What a check shows, instead of `finish`: with `extra` (the reader's problems of lines it did not
   * hand on: too long, too deep), the first `settings.maxProblems` diagnostics after one summary of
   * the rest, and whether any problem, shown or not, is an error. A checker that can caps while it
   * produces (see `checkResult`). Problems of the file itself (a cut `.gz`, a file too large) are
   * never among `extra`: `withFileProblems` adds them to every format's result alike.
   */
  finishCapped(settings: DiagnosticSettings, extra: readonly Diagnostic[]): CheckResult;
}

/** The problems a check shows and its exit status. */
export interface CheckResult {
  diagnostics: Diagnostic[];
  hasError: boolean;
}

export interface CheckerOptions {
  /** Keep only the first this many diagnostics by position, counting the rest, where the checker can. */
  maxProblems?: number;
}

/** How the editor knows a format's files (the `contributes.languages` entry, generated from it). */
export interface LanguageContribution {
  /** Names shown for the language, the first one in the status bar. */
  aliases: readonly string[];
  /** Name endings the editor opens in this language. */
  extensions: readonly string[];
  /** Whole-name globs the editor opens in this language. */
  filenamePatterns?: readonly string[];
  /** A first line that opens a file of any name in this language (a regular expression). */
  firstLine?: string;
}

/** Which Parquet tables `npu-trace export --to parquet` writes for a format (README "Export to Parquet"). */
export type ParquetTableSet = 'npu' | 'nnapi' | 'inferscope' | 'timeline' | 'kprof';

/**
 * One file format: everything the command line, the server, the client and the timeline need to
 * know of it. Each format's folder exports one (`core/<format>/descriptor.ts`) and the registry
 * (`core/formats.ts`) lists them; what a file is, is decided once, by `detectFormat`.
 */
export interface FormatDescriptor {
  /** The format's id, also its VS Code language id (and the id the server keys its services by). */
  id: string;
  /** The format's name for people (SARIF rule descriptions, the manual). */
  displayName: string;
  /** Every diagnostic code the format reports, with an example (the manual's table, SARIF rules). */
  codes: readonly CodeDoc[];
  /** What the editor associates with the language; a binary format (opened by a custom editor) has none. */
  language?: LanguageContribution;
  /**
   * Whole-name globs (`*` only, matched case-insensitively on the base name) that make a file this
   * format whatever it holds: "a file is what its name says".
   */
  names: readonly string[];
  /** The file is read as bytes (a custom editor, its own decoder), not as text. */
  binary?: boolean;
  /**
   * The view types of the custom editors that open it: a binary format's own, or the read-only
   * timeline that opens its gzipped files (`npuTrace.compressedTimeline`).
   */
  customEditors?: readonly string[];
  /**
   * Whether a file that no format's name claims is this format, by its name's kind and its head:
   * the first MB of its text (gunzipped), or of its bytes for a binary format.
   */
  detect?(name: string, head: FileHead): boolean;
  /**
   * For a format that `detect` finds in files the editor opens in another language (a `.json`, a
   * systrace saved as `.html` or `.txt`): those languages, and the boolean setting under `npuTrace.`
   * (on by default) that lets the editor switch such a document to this format's language.
   */
  contentDetection?: { readonly languages: readonly string[]; readonly setting: string };
  /** A builder of the format's timeline (Show Timeline, `export --to chrome-trace`); none: no timeline. */
  timeline?(opts?: BuilderOptions): TimelineBuilder;
  /**
   * A builder that only reads the text (`addText`, `endText`), on another thread, and posts in
   * batches what the format's builder is to do (`TimelineBuilder.replayBatch`); `transfer`: the
   * batch's buffers, moved. `part`: the text read is a part of the file that starts at one of its
   * elements, of that form (`TimelineBuilder.atPartBoundary`). A timeline built on two threads is
   * the one built on one.
   */
  timelineReader?(post: (batch: unknown, transfer: ArrayBuffer[]) => void, part?: string): TimelineBuilder;
  /** The tables `export --to parquet` writes; none: not exported to Parquet. */
  parquetTables?: ParquetTableSet;
  /** The names a directory given to `export --to parquet` is searched for, when not all of `names` hold tables. */
  parquetNames?: readonly string[];
  /** Whether the format's timeline can be exported as Chrome Trace JSON (by `npu-trace export` or the editor). */
  exportsChrome?: boolean;
  /** Whether *Show Summary* applies: the Summary tab has tables of this format (NPU trace metrics; Chrome's streams, kernels and operators; NNAPI's and InferScope's `TimelineModel.summaryTables`). */
  summary?: boolean;
  /** The streaming checker of `npu-trace check` and the editor's line-based checks; none: not checked. */
  createChecker?(opts?: CheckerOptions): LineChecker;
  /**
   * The diagnostic on a line over the line limit, for line-based formats; a format read as one
   * document has none and bounds its size instead.
   */
  lineTooLong?: { code: string; severity: Severity };
  /** For JSON lines: the diagnostic on a line nesting deeper than `MAX_JSON_DEPTH`, which is skipped. */
  lineTooDeep?: { code: string; severity: Severity };
  /**
   * For a format read as one document: its problems from the whole text at once (capped while they
   * are produced), which costs less than feeding a million lines of a pretty-printed file one by one.
   */
  checkDocument?(text: string, settings: DiagnosticSettings): { diagnostics: Diagnostic[]; hasError: boolean };
  /** For a format read as one document: the largest file the CLI reads whole, when not its default. */
  maxDocumentBytes?: number;
  /**
   * For a document whose checker streams it (Chrome JSON: events split as they come): the CLI reads
   * it at any size, each line (a one-line file is one line) up to this many bytes; a longer one
   * gives `file.too-large`.
   */
  streamedLineBytes?: number;
  /**
   * For a document format past `maxDocumentBytes` (or with no `checkDocument`, at any size): a
   * checker fed the decoded text in pieces of any size, not in lines, so the CLI reads a one-line
   * (compact) file of any size too, and the checker reads each piece where it stands. `settings`:
   * those its `finish` will be given, known from the start, so that it can cap its problems as they
   * come rather than keep what it reads until the end.
   */
  createChunkChecker?(settings?: DiagnosticSettings): ChunkChecker;
  /**
   * For a binary format `npu-trace check` checks (a Perfetto protobuf trace): a checker fed the
   * file's bytes (gunzipped) in pieces of any size; it has no lines, so positions are line 0 and
   * the byte offset.
   */
  createByteChecker?(opts?: CheckerOptions & ByteReadOptions): ByteChecker;
  /** For a binary format with a timeline: its builder, fed the file's bytes in pieces (`timeline` is for text). */
  byteTimeline?(opts?: ByteReadOptions): ByteTimelineBuilder;
  /** How `npu-trace diff` reads a run of this format (`core/<id>/diff.ts`); none: not compared. */
  diff?: DiffSupport;
}

/** What the Node side gives a binary format's reader: an inflater (node:zlib) for the compressed parts of a file (Perfetto's `compressed_packets`). */
export interface ByteReadOptions {
  inflate?: (deflated: Uint8Array, maxBytes: number) => Uint8Array;
}

/** See `FormatDescriptor.createByteChecker`. */
export interface ByteChecker {
  feed(bytes: Uint8Array): void;
  /** The problems of the bytes fed (the file's own, a cut gzip stream, are the reader's: `withFileProblems`). */
  finish(settings: DiagnosticSettings): CheckResult;
}

/** See `FormatDescriptor.byteTimeline`. */
export interface ByteTimelineBuilder {
  feed(bytes: Uint8Array): void;
  finish(): TimelineModel;
}

/** See `FormatDescriptor.createChunkChecker`. */
export interface ChunkChecker {
  feed(chunk: string): void;
  /** `cutOff`: the text was cut (a truncated .gz): the line it was cut in is not read, as the line readers leave it out. */
  finish(settings: DiagnosticSettings, cutOff?: boolean): CheckResult;
}

/**
 * The read-only timeline editor that gzipped text traces open in (`*.pt.trace.json.gz`, HTA's
 * `*.json.gz`, `*.trace.jsonl.gz`…): VS Code shows a .gz as a binary file, so without it such a
 * trace had no editor at all (#30). Its selector in package.json is checked against the registry.
 */
export const COMPRESSED_TIMELINE_EDITOR = 'npuTrace.compressedTimeline';

/**
 * The same read-only timeline, offered for a file of any name under *Reopen Editor With…* / *Open
 * With…* (priority `option`): VS Code shows a binary file of an unknown name (a Perfetto trace
 * pulled as `trace`) as nothing, and hands it to no content detection; the timeline worker tells
 * its format by its bytes.
 */
export const ANY_TIMELINE_EDITOR = 'npuTrace.timelineAny';
