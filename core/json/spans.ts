/**
 * The offsets model shared by the JSON documents (CMDQ, InferScope): offsets are UTF-16 code units
 * into the document text; positions are derived from them only when needed.
 */
export interface Span {
  start: number;
  end: number;
}

export interface SyntaxProblem extends Span {
  message: string;
}

/** Key and value ranges of one object's fields, and the ranges of the elements of one array field. */
export interface ObjectRanges {
  keys: string[];
  /** keyStart, keyEnd, valueStart, valueEnd per key. */
  pos: number[];
  /** start, end per element of the last `deps_before` key, when it is an array (CMDQ's dependency list). */
  deps: number[] | undefined;
}

/** One element of a large top-level array, split out of the text and parsed on its own. */
export interface ArrayElement extends Span {
  /** Position in the array. */
  index: number;
  /** JSON kind of the element (`object` when well-formed). */
  kind: string;
  /** The element as plain JSON when it is an object. */
  obj: Record<string, unknown> | undefined;
  /** A syntax error inside the element: it holds its slot but is not checked. */
  broken: boolean;
}
