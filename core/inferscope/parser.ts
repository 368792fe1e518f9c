import {
  CLOSE_BRACKET, COLON, COMMA, EOF, Fail, kindOfChar, kindOfToken, OPEN_BRACE, OPEN_BRACKET, Parser, STRING,
} from '../json/jsoncParser';
import { parseRoot, withLazyLineStarts } from '../json/root';
import { splitArray } from '../json/split';
import type { Element, ParsedInferscope } from './model';

/** The document as the parser's messages name it. */
const INFERSCOPE = 'an InferScope trace';

function element(index: number, start: number, end: number, kind: string, v: unknown): Element {
  return { index, start, end, kind, obj: kind === 'object' ? (v as Record<string, unknown>) : undefined, broken: false };
}

/**
 * The elements of the array at the parser's `[` (depth `depth` inside it). Clean arrays are split by
 * the bracket matcher and parsed by the engine's JSON.parse (one call for the whole array when it is
 * plain JSON: a 200k-event trace costs about what JSON.parse of the file does); an element JSON.parse
 * rejects goes through the scanner, which reports where it breaks. An irregular array (truncated,
 * a missing comma) is read by the scanner up to the first error, which ends the document.
 */
function readArray(p: Parser, text: string, depth: number, out: Element[]): void {
  const open = p.tokStart;
  const spans = splitArray(text, open);
  if (spans) {
    const { starts, ends } = spans;
    let all: unknown[] | undefined;
    try {
      const v: unknown = JSON.parse(text.slice(open, spans.close + 1));
      if (Array.isArray(v) && v.length === starts.length) all = v;
    } catch {
      all = undefined;
    }
    for (let i = 0; i < starts.length; i++) {
      const s = starts[i];
      const kind = kindOfChar(text.charCodeAt(s));
      if (all) {
        out.push(element(i, s, ends[i], kind, all[i]));
        continue;
      }
      try {
        out.push(element(i, s, ends[i], kind, JSON.parse(text.slice(s, ends[i]))));
      } catch {
        const q = new Parser(text, INFERSCOPE);
        try {
          q.jumpTo(s, depth + 1);
          out.push(element(i, s, ends[i], kind, q.value(depth + 1)));
        } catch (f) {
          if (!(f instanceof Fail)) throw f;
          p.record(f);
          out.push({ index: i, start: s, end: ends[i], kind: 'invalid', obj: undefined, broken: true });
        }
      }
    }
    p.jumpTo(spans.close + 1, depth);
    return;
  }
  p.next();
  while (p.tok !== CLOSE_BRACKET) {
    const s = p.tokStart;
    const kind = kindOfToken(p.tok);
    const v = p.value(depth + 1);
    out.push(element(out.length, s, p.prevEnd, kind, v));
    if (p.tok === COMMA) {
      p.next();
      if (p.tok === CLOSE_BRACKET) break;
    } else if (p.tok !== CLOSE_BRACKET) throw p.fail("',' or ']'");
  }
  p.next();
}

/** The members of `relationships`: only `scopes` is read element by element. */
function readRelationships(p: Parser, text: string, out: ParsedInferscope): unknown {
  const obj: Record<string, unknown> = {};
  p.members((key, keyStart, keyEnd) => {
    if (key === 'scopes') {
      out.scopesKey = { start: keyStart, end: keyEnd };
      out.scopesKind = kindOfToken(p.tok);
      out.scopes = [];
    }
    if (key === 'scopes' && p.tok === OPEN_BRACKET) {
      out.scopes = [];
      readArray(p, text, 2, out.scopes);
      obj[key] = out.scopes.length;
    } else {
      const v = p.value(2);
      if (key !== '__proto__') obj[key] = v;
    }
  });
  return obj;
}

function onRootMember(p: Parser, out: ParsedInferscope, key: string, keyStart: number, keyEnd: number): void {
  const valueStart = p.tokStart;
  const kind = kindOfToken(p.tok);
  const field = { key, keyStart, keyEnd, valueStart, valueEnd: valueStart, kind, value: undefined as unknown };
  // Recorded before the value is read: a value cut off by the end of the file still has its key.
  out.fields.set(key, field);
  if (key === 'events' && p.tok === OPEN_BRACKET) {
    out.events = [];
    readArray(p, out.text, 1, out.events);
  } else if (key === 'relationships' && p.tok === OPEN_BRACE) {
    field.value = readRelationships(p, out.text, out);
  } else field.value = p.value(1);
  field.valueEnd = p.prevEnd;
}

/**
 * Parses an InferScope trace, analysis result or report in one pass over jsonc-parser's scanner,
 * keeping the range of every top-level key and value and of every event and scope. No JSON tree
 * is built: ranges inside an element are scanned on demand (`locate`).
 */
export function parseInferscope(text: string): ParsedInferscope {
  const out: ParsedInferscope = withLazyLineStarts({
    text, lineStarts: [0], rootKind: undefined, rootSpan: { start: 0, end: 0 }, fields: new Map(),
    events: [], scopesKey: undefined, scopesKind: undefined, scopes: [], syntax: [],
  });
  parseRoot(out, INFERSCOPE, (p, key, keyStart, keyEnd) => onRootMember(p, out, key, keyStart, keyEnd));
  return out;
}

/** Key and value ranges of what a path inside an element names. */
export interface Located {
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

/**
 * The ranges of `path` (keys and array indexes) inside the value starting at `start`, scanned now:
 * most elements of a large trace never need a position, so none are kept. A repeated key resolves
 * to its last occurrence, as with JSON.parse. Undefined when the path is not there.
 */
export function locate(text: string, start: number, path: readonly (string | number)[]): Located | undefined {
  const p = new Parser(text, INFERSCOPE);
  let at: Located = { keyStart: start, keyEnd: start, valueStart: start, valueEnd: start };
  try {
    p.jumpTo(start, 2);
    for (const seg of path) {
      let found: Located | undefined;
      if (typeof seg === 'string' && p.tok === OPEN_BRACE) {
        p.next();
        while (p.tok === STRING) {
          const key = p.tokenValue();
          const ks = p.tokStart;
          const ke = p.tokEnd;
          p.next();
          if (p.tok !== COLON) return undefined;
          p.next();
          const vs = p.tokStart;
          p.value(p.depth);
          if (key === seg) found = { keyStart: ks, keyEnd: ke, valueStart: vs, valueEnd: p.prevEnd };
          if (p.tok !== COMMA) break;
          p.next();
        }
      } else if (typeof seg === 'number' && p.tok === OPEN_BRACKET) {
        p.next();
        for (let k = 0; p.tok !== CLOSE_BRACKET && p.tok !== EOF; k++) {
          const vs = p.tokStart;
          p.value(p.depth);
          if (k === seg) {
            found = { keyStart: vs, keyEnd: p.prevEnd, valueStart: vs, valueEnd: p.prevEnd };
            break;
          }
          if (p.tok !== COMMA) break;
          p.next();
        }
      }
      if (!found) return undefined;
      at = found;
      p.jumpTo(found.valueStart, p.depth);
    }
  } catch (f) {
    if (!(f instanceof Fail)) throw f;
    return undefined;
  }
  return at;
}
