import { EOF, Fail, kindOfToken, OPEN_BRACE, Parser } from './jsoncParser';
import { computeLineStarts } from './positions';
import type { Span, SyntaxProblem } from './spans';

/** What every JSONC document keeps of its top-level value. */
export interface ParsedRoot {
  text: string;
  lineStarts: number[];
  /** Kind of the top-level value, undefined when there is none. */
  rootKind: string | undefined;
  rootSpan: Span;
  syntax: SyntaxProblem[];
}

/**
 * Parses the top-level value of `out.text` over jsonc-parser's scanner. For a root object, `onMember`
 * is called for each key with the parser at the key's value (`what` names the document in messages) and must consume that value. The first
 * syntax error ends the document; every recorded problem lands in `out.syntax`, in text order.
 */
export function parseRoot(
  out: ParsedRoot,
  what: string,
  onMember: (p: Parser, key: string, keyStart: number, keyEnd: number) => void,
): void {
  const text = out.text;
  const p = new Parser(text, what);
  try {
    // A UTF-8 BOM is not JSON but editors keep it in the text; skip it, as the CLI's line reader does.
    if (text.charCodeAt(0) === 0xfeff) p.jumpTo(1, 0);
    else p.next();
    if (p.tok !== EOF) {
      out.rootKind = kindOfToken(p.tok);
      out.rootSpan = { start: p.tokStart, end: p.tokEnd };
      if (p.tok !== OPEN_BRACE) {
        p.value(0);
        out.rootSpan.end = p.prevEnd;
      } else {
        out.rootSpan.end = p.members((key, keyStart, keyEnd) => onMember(p, key, keyStart, keyEnd));
      }
      if (p.tok !== EOF) throw p.fail('end of file after the top-level value');
    }
  } catch (f) {
    if (!(f instanceof Fail)) throw f;
    p.record(f);
  }
  out.syntax.push(...p.syntax);
  out.syntax.sort((a, b) => a.start - b.start);
}

/**
 * Makes `out.lineStarts` computed on first use: a check that finds nothing (the CLI on a clean
 * 100k-entry queue or a 115 MB trace) never needs a position, and the starts of a million lines
 * cost as much as parsing the elements. Assigning it replaces the computed value.
 */
export function withLazyLineStarts<T extends { text: string; lineStarts: number[] }>(out: T): T {
  let starts: number[] | undefined;
  return Object.defineProperty(out, 'lineStarts', {
    get: () => (starts ??= computeLineStarts(out.text)),
    set: (v: number[]) => (starts = v),
    enumerable: true,
  });
}
