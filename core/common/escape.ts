// Every value read from a file is hostile: it may hold Markdown that forges headings, links or
// images (fetched when a hover renders), terminal escape sequences that rewrite a CI log, or
// bidirectional-text controls that make a line read differently from what it holds (CVE-2021-42574,
// "Trojan Source"). These are the only ways such a value may reach Markdown, HTML, DOT, SARIF, an
// annotation, an outline or a terminal: `escapeControl` is the one function for visible text, and
// the others build on it.

/** Longest value quoted in a hover or a message before it is cut (a 10 MB field stays a line). */
export const MAX_QUOTED = 200;

// C0 and C1 controls, DEL, the Unicode line/paragraph separators, which Markdown and some
// terminals treat as line breaks, and the bidirectional formatting characters (Unicode TR9: the
// embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069, the marks U+200E, U+200F
// and U+061C), which reorder what a reader sees without changing what is there.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function showControl(c: string): string {
  const n = c.charCodeAt(0);
  return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
}

/**
 * Visible text: control and bidirectional-text characters written as visible escapes (`\x1b`,
 * `\x0a`, `\u202e`), so a value can neither break a line of output, send an escape sequence to a
 * terminal, nor reorder what is shown around it. Printable text is unchanged; escaping twice
 * changes nothing more (a backslash is not escaped).
 */
export function escapeControl(s: string): string {
  return s.replace(CONTROL, showControl);
}

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

// Every ASCII punctuation character may be backslash-escaped in CommonMark, and escaping all of
// them leaves nothing for a renderer to read as markup: no emphasis, heading, table cell, link,
// image, HTML tag or entity, and no `https:` or `www.` that a GFM renderer would turn into a link.
const PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** A value from a file as plain text inside Markdown: controls made visible, markup escaped, cut at `max`. */
export function escapeMarkdown(s: string, max = MAX_QUOTED): string {
  return escapeControl(cut(s, max)).replace(PUNCTUATION, '\\$&');
}

/**
 * A value from a file as an inline code span that the value cannot close: the fence is one
 * backtick longer than the longest run of backticks in it. Controls are made visible first, since
 * a line break would end the paragraph (and the span) before any inline parsing.
 */
export function markdownCode(s: string, max = MAX_QUOTED): string {
  const v = escapeControl(cut(s, max));
  let longest = 0;
  let run = 0;
  for (let i = 0; i < v.length; i++) {
    if (v.charCodeAt(i) === 96) longest = Math.max(longest, ++run);
    else run = 0;
  }
  const fence = '`'.repeat(longest + 1);
  // A space on each side keeps a leading or trailing backtick out of the fence (CommonMark strips one).
  const pad = v.startsWith('`') || v.endsWith('`') || v === '' ? ' ' : '';
  return `${fence}${pad}${v}${pad}${fence}`;
}

const HTML_SPECIAL = /[&<>"']/g;

/** A value from a file as HTML text or a quoted attribute: controls visible, markup characters as entities, cut at `max`. */
export function escapeHtmlText(s: string, max = MAX_QUOTED): string {
  return escapeControl(cut(s, max)).replace(HTML_SPECIAL, (c) => `&#${c.charCodeAt(0)};`);
}
