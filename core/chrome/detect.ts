import { ChromeEventStream } from './stream';

/**
 * Whether the head of a JSON document is a Chrome trace: a top-level object whose `traceEvents`
 * array opens (after any other keys: PyTorch writes `deviceProperties` first, pretty-printed), or a
 * top-level array whose first element has a `ph`. Read with the streaming splitter, line by line,
 * stopping at the answer.
 */
export function looksLikeChromeTrace(head: string): boolean {
  let first: string | undefined;
  let broken = false;
  const s = new ChromeEventStream({ event: (e) => (first ??= e.text), broken: () => (broken = true) });
  let at = 0;
  for (let n = 0; at <= head.length && !broken; n++) {
    const nl = head.indexOf('\n', at);
    const end = nl < 0 ? head.length : nl;
    s.feed(head.slice(at, end), n);
    if (s.sawTraceEvents) return true;
    if (first !== undefined) return s.form === 'array' && hasPh(first);
    if (nl < 0) break;
    at = nl + 1;
  }
  return false;
}

function hasPh(text: string): boolean {
  try {
    const o: unknown = JSON.parse(text);
    return typeof o === 'object' && o !== null && 'ph' in o;
  } catch {
    return false;
  }
}
