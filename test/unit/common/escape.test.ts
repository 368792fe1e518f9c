// Values from files rendered by `marked` (the Markdown renderer of VS Code's hovers, with GFM on):
// nothing a value holds may become a heading, a table, a link or an image.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { marked } from 'marked';
import { escapeControl, escapeHtmlText, escapeMarkdown, markdownCode } from '../../../core/common/escape';
import { HOSTILE_VALUES } from './hostileValues';


function html(md: string): string {
  return marked.parse(md, { gfm: true, async: false });
}

function assertInert(out: string, value: string): void {
  for (const tag of ['<a', '<img', '<h1', '<h2', '<table', '<script', '<strong', '<em', '<del', '<pre', '<hr']) {
    assert.ok(!out.includes(tag), `${JSON.stringify(value)} rendered ${tag}: ${out}`);
  }
}

describe('escapeMarkdown', () => {
  for (const v of HOSTILE_VALUES) {
    it(`keeps ${JSON.stringify(v).slice(0, 40)} as text`, () => {
      const out = html(`**phase** ${escapeMarkdown(v)} of the command`);
      // The bold label is ours and must survive; nothing of the value may add markup.
      assert.equal(out.split('<strong>').length, 2);
      assertInert(out.replace('<strong>phase</strong>', ''), v);
      assert.ok(!out.includes('\n<'), `a line break in ${JSON.stringify(v)} started a block`);
    });
  }

  it('shows every character of a plain value', () => {
    const v = 'a-b_c.d(1)[2]{3}!#|';
    const text = html(escapeMarkdown(v)).replace(/<\/?p>/g, '').trim();
    assert.equal(text, v);
  });

  it('cuts a long value', () => {
    assert.equal(escapeMarkdown('x'.repeat(10_000)).length, 201);
  });
});

describe('markdownCode', () => {
  for (const v of [...HOSTILE_VALUES, '`', 'a``b', '```', '`x`']) {
    it(`cannot be closed by ${JSON.stringify(v).slice(0, 40)}`, () => {
      const out = html(`op ${markdownCode(v)} end`);
      assert.equal(out.split('<code>').length, 2, out);
      assertInert(out, v);
      assert.ok(/<\/code> end/.test(out), `the span ended early: ${out}`);
    });
  }
});

describe('escapeControl', () => {
  it('makes escape sequences and line breaks visible', () => {
    assert.equal(escapeControl('a\u001b]0;x\u0007\u001b[2Kb\nc\u009b\u2028'), 'a\\x1b]0;x\\x07\\x1b[2Kb\\x0ac\\x9b\\u2028');
  });
});

describe('bidirectional-text controls (#29 item 13)', () => {
  it('every one of TR9\'s formatting characters is shown by its code, in every escaper', () => {
    const bidi = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
    const shown = '\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c';
    assert.equal(escapeControl(`a${bidi}b`), `a${shown}b`);
    assert.equal(escapeControl(escapeControl(bidi)), shown, 'escaping twice changes nothing more');
    for (const out of [escapeMarkdown(bidi), markdownCode(bidi), escapeHtmlText(bidi)]) assert.ok(!/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/.test(out), out);
    // Letters of right-to-left scripts are text, not controls.
    assert.equal(escapeControl('שלום مرحبا'), 'שלום مرحبا');
  });
});
