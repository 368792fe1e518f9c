import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InferscopeDocument } from '../../../core/inferscope/document';
import { hoverAt } from '../../../core/inferscope/hover';
import { outline } from '../../../core/inferscope/symbols';
import { traceWith, type Obj } from './helpers';

const HOSTILE = '**x** [l](https://evil.example/a.png) <img src=x>\u001b[31m\nline';

describe('InferScope hover and outline on hostile values', () => {
  it('event and scope names are escaped Markdown on one line; the outline shows controls', () => {
    const text = traceWith(({ events, scopes }) => {
      events[4].name = HOSTILE;
      (events[4].metadata as Obj).grid_dim = 'big';
      scopes[3].name = HOSTILE;
    });
    const doc = InferscopeDocument.parse(text);
    const at = text.indexOf('"id": "k7_0_0"');
    const h = hoverAt(doc, at)!.markdown;
    // Inside the code span the value is inert; outside it no markup of the file may survive.
    assert.doesNotMatch(h.replace(/`[^`]*`/g, ''), /(^|[^\\])(\]\(https|<img|\*\*x)/);
    assert.ok(!h.includes('\u001b') && !h.includes('\nline'));
    assert.match(h, /`\*\*x\*\* \[l\]\(https:\/\/evil\.example\/a\.png\) <img src=x>\\x1b\[31m\\x0aline`/);
    assert.match(h, /scope: inference › request 0 › \\\*\\\*x\\\*\\\* \\\[l\\\]/);
    assert.match(h, /launch: grid \? × block \[256, 1, 1\]/);
    const names: string[] = [];
    const walk = (n: { name: string; children: { name: string; children: unknown[] }[] }) => {
      names.push(n.name);
      n.children.forEach((c) => walk(c as typeof n));
    };
    outline(doc).forEach((n) => walk(n));
    assert.ok(names.every((n) => [...n].every((c) => c.charCodeAt(0) >= 0x20)));
    assert.ok(names.some((n) => n.includes('\\x1b[31m\\x0aline')));
  });
});
