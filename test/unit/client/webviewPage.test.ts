// The one HTML shell of the webview pages: every page built on it runs only our script, escapes
// what it is given, and keeps its own elements and rules.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graphPage } from '../../../client/cmdq/graphHtml';
import { compareTimelinesPage, diffPage } from '../../../client/diff/html';
import { timelinePage } from '../../../client/timeline/html';
import { escapeHtml, staticPage, webviewPage } from '../../../client/webviewPage';

const evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
const o = { cspSource: 'vscode-resource:', nonce: 'n0nce', scriptUri: `s.js${evil}`, title: `t${evil}` };

const csp = (html: string) => /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1].replace(/&#39;/g, "'");

test('every page: one script, ours by nonce; values escaped; no inline script allowed', () => {
  const pages = {
    timeline: timelinePage({ ...o, styleUri: 'style.css' }),
    graph: graphPage(o),
    diff: diffPage(o),
    compare: compareTimelinesPage(o),
    bare: webviewPage({ ...o, body: '<p>x</p>' }),
  };
  for (const [name, html] of Object.entries(pages)) {
    assert.equal(html.match(/<script/g)?.length, 1, `${name}: one script element`);
    assert.ok(html.includes('<script nonce="n0nce" src="s.js&quot;&gt;&lt;script&gt;'), `${name}: the script's address is escaped`);
    assert.ok(!html.includes('<img'), `${name}: the title and address are text`);
    const policy = csp(html);
    assert.match(policy, /^default-src 'none'; script-src 'nonce-n0nce';/, name);
    assert.ok(!/script-src[^;]*(unsafe|\*)/.test(policy), `${name}: no unsafe-inline / unsafe-eval / wildcard for scripts`);
    assert.ok(html.startsWith('<!DOCTYPE html>') && html.trimEnd().endsWith('</html>'), name);
  }
  assert.ok(pages.timeline.includes('<link rel="stylesheet" href="style.css">') && pages.timeline.includes('id="summaryView"'));
  assert.ok(!pages.timeline.includes('<style>'), 'the timeline has its rules in its stylesheet');
  assert.ok(pages.graph.includes('<style>') && pages.graph.includes('#table th') && pages.graph.includes('id="canvas"'));
  assert.ok(!pages.graph.includes('<link'), 'a page without a stylesheet links none');
  assert.ok(pages.diff.includes('[hidden] { display: none !important; }'), "the comparison pages' shared rules");
});

test('a static page runs nothing', () => {
  const html = staticPage(`<p>${escapeHtml(evil)}</p>`);
  assert.equal(csp(html), "default-src 'none'");
  assert.ok(!html.includes('<script') && !html.includes('<img'));
});
