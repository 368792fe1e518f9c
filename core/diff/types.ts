// What a format gives `npu-trace diff` for one run, and what the comparison of two runs is (the
// `--json` contract, published as schemas/diff.schema.json). Format-neutral: each format's folder
// fills a `DiffRun` (its `core/<id>/diff.ts`) and `compareRuns` (compare.ts) does the rest.
import type { AttrName } from '../timeline/model';

/** One group of one run: the durations of its items (commands, kernels, events …). */
export interface DiffGroup {
  /** What the group is by: phase, layer, cmd_type, engine, kernel, operator, stream, step … */
  kind: string;
  key: string;
  /** One duration per item, in the run's unit. */
  durations: number[];
  /** The 1-based line where the group's first item is (its annotation in SARIF/GitHub); none: unknown. */
  firstLine?: number;
}

/** A run-level figure with no items to test (a utilization, a bandwidth, a rate). */
export interface DiffMetric {
  key: string;
  value: number | null;
  unit: string;
}

/** What one file gives the comparison. */
export interface DiffRun {
  /** The unit of every duration and of `span`: cycles, us, ns … */
  unit: string;
  /** From the first item's start to the last one's end, in `unit`; null when the run has none. */
  span: number | null;
  groups: DiffGroup[];
  metrics: DiffMetric[];
  /** Anything the reader skipped or capped, said once (shown on stderr by the CLI). */
  notes?: string[];
}

/**
 * A format's part of `npu-trace diff` (`FormatDescriptor.diff`). A text format is fed its lines
 * (streamed: a million events are never held as text) or its whole text; a binary one its bytes.
 * A format without times says why it cannot be compared (`unsupported`).
 */
export interface DiffSupport {
  /** The group kinds it gives, in the order they are shown (`--by` picks among them). */
  kinds: readonly string[];
  /** Why the format cannot be diffed; when set, nothing else is used. */
  unsupported?: string;
  /** A collector fed every line (1-based numbers), for line formats and streamed documents. */
  lines?(): DiffLineCollector;
  /** For a document read whole. */
  text?(text: string): DiffRun;
  /** For a binary format: its (gunzipped) bytes, with what the host gives a decoder. */
  bytes?(data: Uint8Array, host: DiffHost): DiffRun;
  /**
   * Where a group's items are in the format's timeline model, per kind (the editor's Diff view
   * highlights them in both runs' timelines); a kind not named here is not highlighted.
   */
  timeline?: Readonly<Partial<Record<string, TimelineMatch>>>;
  /**
   * The points Compare Timelines can align both runs at (core/diff/markers.ts), one list per kind
   * of marker (the first command of each layer, each step …); none: the runs align at their starts only.
   */
  markers?: readonly MarkerSpec[];
}

/**
 * One kind of marker in a timeline model: the items it picks (of `kinds`, whose attributes are
 * `where` says, whose name starts with `prefix`), each named by `key` — an attribute's value, the
 * item's name, or its rank in time (1, 2, 3 …) — at the item's start. With `each`, every picked
 * item is a marker (a repeated key is numbered: `infer`, `infer #2` …); without, a key's first item
 * in time is. Markers of A and B are matched by (label, key).
 */
export interface MarkerSpec {
  /** What a marker of this list is, shown before its key: `layer`, `phase`, `step`, `scope`, `run`. */
  label: string;
  key: 'attr' | 'name' | 'rank';
  /** The attribute naming a marker (`key: 'attr'`). */
  attr?: AttrName;
  /** Only items whose name starts with this. */
  prefix?: string;
  /** Only items of these kinds (KIND); absent: any. */
  kinds?: readonly number[];
  /** Only items whose attribute is (`not`: is not) the value. */
  where?: readonly { attr: AttrName; value: string; not?: boolean }[];
  each?: boolean;
  /** A click on a Diff view group of this kind aligns both runs at this list's marker of the group's key. */
  group?: string;
  /** The key of the one group of kind `group` that holds every marker of the list (Chrome's `ProfilerStep`): a click on it aligns at the first. */
  groupAll?: string;
}

/**
 * Which items of a timeline model belong to a group of `key` (core/diff/timelineMatch.ts): those
 * whose context attribute is the key, those whose name is (of the item kinds listed, else any),
 * or those whose kind's name (KIND_NAMES) is.
 */
export type TimelineMatch =
  | { by: 'attr'; attr: AttrName }
  | { by: 'name'; kinds?: readonly number[] }
  | { by: 'kind' };

/** What the host (the CLI) hands a binary format's reader: pure code reads no files and has no zlib. */
export interface DiffHost {
  name: string;
  /** Raw inflate, never producing more than `maxBytes` (zip entries). */
  inflateRaw(data: Uint8Array, maxBytes: number): Uint8Array;
  /** Event names found beside the file (`<file>.names.json` …), if any. */
  names?: readonly string[];
}

export interface DiffLineCollector {
  add(line: string, lineNo: number): void;
  /** Optional fast path: the line's UTF-8 bytes `[s, e)`, only valid during the call. */
  addBytes?(b: Uint8Array, s: number, e: number, lineNo: number, decode: (b: Uint8Array, s: number, e: number) => string): void;
  finish(): DiffRun;
}

/** count, total, mean, p50, p95 of one group in one run (nearest-rank percentiles). */
export interface SampleStats {
  count: number;
  total: number;
  mean: number | null;
  p50: number | null;
  p95: number | null;
}

export interface GroupDiff {
  kind: string;
  key: string;
  a: SampleStats;
  b: SampleStats;
  /** b − a. */
  delta: { total: number; mean: number | null };
  /** (b − a) / a; null where a is 0 or absent. */
  rel: { total: number | null; mean: number | null };
  /** Two-sided Mann–Whitney U p-value, Benjamini–Hochberg adjusted over the groups; null: not testable. */
  p_value: number | null;
  significant: boolean;
  /** Significant and the mean moved by at least the minimum effect: a regression or improvement shown. */
  reported: boolean;
  /** The line of the group's first item in B (in A when B has none). */
  line: number | null;
}

export interface MetricDiff {
  key: string;
  unit: string;
  a: number | null;
  b: number | null;
  delta: number | null;
  rel: number | null;
}

export interface RunInfo {
  file: string;
  format: string;
  unit: string;
  span: number | null;
}

export interface DiffResult {
  version: 1;
  a: RunInfo;
  b: RunInfo;
  test: { name: string; correction: string; alpha: number; min_effect: number };
  run: { span_delta: number | null; span_rel: number | null };
  groups: GroupDiff[];
  metrics: MetricDiff[];
  regressions: GroupDiff[];
  improvements: GroupDiff[];
}
