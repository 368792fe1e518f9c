/** Levenshtein distance, bounded: returns `limit + 1` as soon as the distance must exceed it. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > limit) return limit + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** The closest candidate (case-insensitive) within a third of the word's length, or undefined. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toUpperCase();
  const limit = Math.max(2, Math.ceil(w.length / 3));
  let best: string | undefined;
  let bestD = limit + 1;
  for (const c of candidates) {
    const d = editDistance(w, c.toUpperCase(), limit);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}
