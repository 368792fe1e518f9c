/**
 * A copy of `s` that holds no other string's memory. A string cut from a line of a streamed file
 * can be a view into the whole decoded chunk (1 MB): anything kept for the life of an analysis
 * (a thread's name, a run's first mark, a cache key) must not keep its chunk alive with it.
 */
export function ownString(s: string): string {
  // V8 copies cuts shorter than 13 characters anyway; `join` builds a new flat string, where
  // `slice` or `+` could hand back a view of the original.
  return s.length < 13 ? s : s.split('').join('');
}
