import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Our TextMate grammars are flat (syntaxes/*.tmLanguage.json): a rule is one match, or a begin/end
// with nothing inside (a block comment), and no other grammar is included. VS Code tokenizes every
// line of a file up to 20 MB once it is open, and the nested rules of the built-in source.json cost
// two to four times the CPU on big files (`npm run bench -- grammars`). These helpers read such a
// grammar and tokenize lines as TextMate does one (a match's captures as tokens, in group order), so
// tests can say what it colours.

export interface Rule { match?: string; name?: string; begin?: string; end?: string; include?: string; captures?: Record<string, { name?: string }>; patterns?: Rule[] }
export interface Grammar { scopeName: string; patterns: Rule[]; repository?: Record<string, Rule> }

const ROOT = join(__dirname, '..', '..', '..');

export const grammarAt = (path: string): Grammar => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Grammar;

/** The grammar's rules in the order TextMate tries them at a position: its patterns, each include expanded. */
export function flatRules(g: Grammar): Rule[] {
  const out: Rule[] = [];
  const walk = (r: Rule): void => {
    if (r.include) walk(g.repository![r.include.slice(1)]);
    else if (r.patterns && !r.match && !r.begin) r.patterns.forEach(walk);
    else out.push(r);
  };
  g.patterns.forEach(walk);
  return out;
}

/** Why the grammar is not flat, or undefined when it is. */
export function notFlat(g: Grammar): string | undefined {
  const rules = flatRules(g);
  if (rules.length === 0) return 'no rule';
  const includes: string[] = [];
  const walk = (r: Rule): void => {
    if (r.include) includes.push(r.include);
    r.patterns?.forEach(walk);
  };
  g.patterns.forEach(walk);
  Object.values(g.repository ?? {}).forEach(walk);
  const foreign = includes.find((i) => !i.startsWith('#'));
  if (foreign) return `includes ${foreign}`;
  const bad = rules.find((r) => !(r.match !== undefined && r.begin === undefined && r.end === undefined && r.patterns === undefined)
    && !(r.begin !== undefined && r.end !== undefined && r.match === undefined && r.patterns === undefined));
  return bad && JSON.stringify(bad);
}

/**
 * Lines as TextMate tokenizes a flat grammar: from each position, the rule whose match starts first
 * (the earlier rule on a tie), its name and its named captures as tokens, then on from its end; a
 * begin/end rule's name covers everything up to its end, across lines. The patterns are both
 * Oniguruma's and JavaScript's. Text no rule matches is no token.
 */
export function tokenizeLines(g: Grammar, lines: readonly string[]): [string, string][] {
  const rules = flatRules(g).map((r) => ({ r, re: new RegExp(r.match ?? r.begin!, 'dg'), end: r.end === undefined ? undefined : new RegExp(r.end, 'g') }));
  const out: [string, string][] = [];
  let inside: { name: string; end: RegExp } | undefined;
  for (const line of lines) {
    let at = 0;
    while (at < line.length) {
      if (inside) {
        inside.end.lastIndex = at;
        const m = inside.end.exec(line);
        const to = m ? m.index + m[0].length : line.length;
        out.push([line.slice(at, to), inside.name]);
        at = to;
        if (m) inside = undefined;
        continue;
      }
      let best: { r: Rule; m: RegExpExecArray; end?: RegExp } | undefined;
      for (const { r, re, end } of rules) {
        re.lastIndex = at;
        const m = re.exec(line);
        if (m && m[0].length > 0 && (!best || m.index < best.m.index)) best = { r, m, end };
      }
      if (!best) break;
      const { r, m, end } = best;
      if (end) {
        out.push([m[0], r.name!]);
        inside = { name: r.name!, end };
        at = m.index + m[0].length;
        continue;
      }
      if (r.name) out.push([m[0], r.name]);
      for (const [k, c] of Object.entries(r.captures ?? {})) {
        const span = m.indices![Number(k)];
        if (span && c.name) out.push([line.slice(span[0], span[1]), c.name]);
      }
      at = m.index + m[0].length;
    }
  }
  return out;
}

export const tokenize = (g: Grammar, line: string): [string, string][] => tokenizeLines(g, [line]);
