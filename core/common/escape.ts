// Every value read from a file is hostile: it may hold Markdown that forges headings, links or
// images (fetched when a hover renders), or terminal escape sequences that rewrite a CI log. These
// are the only ways such a value may reach Markdown or a terminal.

/** Longest value quoted in a hover or a message before it is cut (a 10 MB field stays a line). */
export const MAX_QUOTED = 200;

// C0 and C1 controls, DEL, and the Unicode line/paragraph separators, which Markdown and some
// terminals treat as line breaks.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

function showControl(c: string): string {
  const n = c.charCodeAt(0);
  return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
}

/**
 * Control characters written as visible escapes (`\x1b`, `\x0a`), so a value can neither break a
 * line of output nor send an escape sequence to a terminal. Printable text is unchanged.
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
