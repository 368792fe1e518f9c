/**
 * An atrace mark as Android's `ATRACE_*` writes it into an ftrace `print` event (libcutils
 * trace-dev, and the `B|`… forms Perfetto's systrace parser reads): `B|pid|name`, `E|pid` (or a
 * bare `E`), `C|pid|name|value`, `S|pid|name|cookie`, `F|pid|name|cookie`, `I|pid|name` and
 * `N|pid|track|name` (instants). Anything else is not a mark (kernel prints, other tools).
 */
export type AtraceMark =
  | { kind: 'B'; pid: number | undefined; name: string }
  | { kind: 'E'; pid: number | undefined }
  | { kind: 'C'; pid: number | undefined; name: string; value: number | undefined }
  | { kind: 'S' | 'F'; pid: number | undefined; name: string; cookie: string }
  | { kind: 'I'; pid: number | undefined; name: string };

/** The buf without the line end the kernel adds to a `trace_marker` write. */
export function markText(buf: string): string {
  let e = buf.length;
  while (e > 0 && (buf.charCodeAt(e - 1) === 10 || buf.charCodeAt(e - 1) === 0)) e--;
  return e === buf.length ? buf : buf.slice(0, e);
}

function pidOf(s: string): number | undefined {
  if (!/^\d{1,10}$/.test(s)) return undefined;
  return Number(s);
}

/** Reads a mark (its text after `markText`); undefined when the print is no atrace mark. */
export function parseMark(text: string): AtraceMark | undefined {
  const k = text.charCodeAt(0);
  if (text.length < 1 || (text.length > 1 && text.charCodeAt(1) !== 124 /* | */)) return undefined;
  if (k === 69 /* E */) return { kind: 'E', pid: pidOf(field(text, 1)) };
  const p2 = text.indexOf('|', 2);
  const pid = pidOf(p2 < 0 ? text.slice(2) : text.slice(2, p2));
  const rest = p2 < 0 ? '' : text.slice(p2 + 1);
  switch (k) {
    case 66: /* B */ return p2 < 0 ? undefined : { kind: 'B', pid, name: rest };
    case 73: /* I */ return p2 < 0 ? undefined : { kind: 'I', pid, name: rest };
    case 78: { /* N|pid|track|name */
      const q = rest.indexOf('|');
      return p2 < 0 ? undefined : { kind: 'I', pid, name: q < 0 ? rest : rest.slice(q + 1) };
    }
    case 67: { /* C|pid|name|value[|category] */
      if (p2 < 0) return undefined;
      const q = rest.indexOf('|');
      const name = q < 0 ? rest : rest.slice(0, q);
      const v = q < 0 ? '' : field(rest, 1);
      const value = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(v) ? Number(v) : undefined;
      return { kind: 'C', pid, name, value };
    }
    case 83: case 70: { /* S|pid|name|cookie, F|pid|name|cookie */
      if (p2 < 0) return undefined;
      const q = rest.lastIndexOf('|');
      return { kind: k === 83 ? 'S' : 'F', pid, name: q < 0 ? rest : rest.slice(0, q), cookie: q < 0 ? '' : rest.slice(q + 1) };
    }
  }
  return undefined;
}

/** The i-th `|`-separated field of s ('' past the end). */
function field(s: string, i: number): string {
  let a = 0;
  for (let k = 0; k < i; k++) {
    const q = s.indexOf('|', a);
    if (q < 0) return '';
    a = q + 1;
  }
  const e = s.indexOf('|', a);
  return e < 0 ? s.slice(a) : s.slice(a, e);
}
