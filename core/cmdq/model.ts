import type { ArrayElement, ObjectRanges, Span, SyntaxProblem } from '../json/spans';

export type { Span, SyntaxProblem };
/** Key and value ranges of an entry's fields, and the ranges of its `deps_before` elements. */
export type EntryRanges = ObjectRanges;

/** One `"key": value` of an entry (or of the metadata block) with the ranges of key and value. */
export interface FieldNode {
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  value: unknown;
}

/** An element of the `cmdq` array; its `index` is the id the entry should have, `obj` is what ajv validates. */
export interface CmdqEntry extends ArrayElement {
  /** Integer id when `id` is a non-negative safe integer. */
  id: number | undefined;
  opcode: string | undefined;
  layerId: string | null | undefined;
  /** `deps_before` when it is an array (elements as parsed; see `depId`). */
  deps: readonly unknown[] | undefined;
  /**
   * Filled on demand by `rangesOf`: most entries of a large valid queue never need positions, so
   * the fast path parses values with JSON.parse and scans ranges only for entries someone looks at.
   */
  ranges: EntryRanges | undefined;
  /** Set once the entry passed its schema: a later version sharing the entry skips ajv. */
  schemaValid?: boolean;
  /** Whether ajv rejects the entry (or its opcode is unknown); cached for entries past the cap. */
  schemaFails?: boolean;
}

export interface ParsedCmdq {
  text: string;
  /** Start offsets of every line, for offset → position. */
  lineStarts: number[];
  /** Kind of the top-level value, undefined when there is none. */
  rootKind: string | undefined;
  rootSpan: Span;
  /** The `"cmdq"` key and its value. */
  cmdqKey: Span | undefined;
  cmdqValue: Span | undefined;
  /** Kind of the `cmdq` value (`array` when well-formed). */
  cmdqKind: string | undefined;
  /** Offset of the closing `]` of the cmdq array: where new entries are appended. */
  cmdqClose: number | undefined;
  metadata: FieldNode | undefined;
  /** Ranges of the metadata object's fields, when it is an object. */
  metadataRanges: EntryRanges | undefined;
  entries: CmdqEntry[];
  syntax: SyntaxProblem[];
}

/** The id a `deps_before` element names, or -1 when it is not a non-negative safe integer. */
export function depId(v: unknown): number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : -1;
}
