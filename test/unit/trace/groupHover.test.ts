// Hover on a phase or layer_id value: the numbers of `npu-trace stats` for it, escaped, computed at
// most once per document version, and not at all past the line cap.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { marked } from 'marked';
import { TraceDocument } from '../../../core/trace/document';
import { MAX_HOVER_STATS_LINES } from '../../../core/trace/groupHover';
import { hoverAt } from '../../../core/trace/hover';
import { MetricsCollector } from '../../../core/trace/metrics/collector';

const EXAMPLE = readFileSync(resolve(__dirname, '../../../examples/llm-layer.trace.jsonl'), 'utf8');

/** Hover on the value of `key` in the first line that has it. */
function hoverOn(doc: TraceDocument, key: string) {
  const line = doc.lines.findIndex((l) => l.text.includes(`"${key}":`));
  const text = doc.lines[line].text;
  const at = text.indexOf(`"${key}":`) + key.length + 4;
  return hoverAt(doc, line, at)?.markdown;
}

/** Counts metric computations (each ends in one finish()). */
function countFinishes(): { n: number; restore(): void } {
  const orig = MetricsCollector.prototype.finish;
  const c = { n: 0, restore: () => (MetricsCollector.prototype.finish = orig) };
  MetricsCollector.prototype.finish = function (this: MetricsCollector) {
    c.n++;
    return orig.call(this);
  };
  return c;
}

test('a phase value shows that phase\'s row of npu-trace stats', () => {
  const doc = TraceDocument.parse(EXAMPLE);
  const c = new MetricsCollector();
  for (const l of EXAMPLE.split('\n')) c.addLine(l);
  const phase = c.finish().phases[0];
  const md = hoverOn(doc, 'phase')!;
  assert.match(md, new RegExp(`^\\*\\*Phase\\*\\* \`${phase.phase}\``));
  assert.ok(md.includes(`| commands | ${phase.commands} |`), md);
  assert.ok(md.includes(`| latency Σ | ${phase.latency_sum_cycles.toLocaleString('en-US')} cycles |`), md);
  assert.ok(md.includes(`${(phase.te_share! * 100).toFixed(1)} %`), md);
  const layer = hoverOn(doc, 'layer_id')!;
  assert.match(layer, /^\*\*Layer\*\* `0`/);
});

test('computed once per document version: hovers reuse it, an edit makes the next hover recompute', () => {
  const doc = TraceDocument.parse(EXAMPLE);
  const count = countFinishes();
  try {
    hoverOn(doc, 'phase');
    hoverOn(doc, 'layer_id');
    hoverOn(doc, 'phase');
    assert.equal(count.n, 1, 'three hovers, one computation');
    const line = doc.lines.findIndex((l) => l.text.includes('"phase":"LN1"'));
    const text = doc.lines[line].text.replace('"phase":"LN1"', '"phase":"LNX"');
    doc.update([{ start: line, end: line + 1, newCount: 1 }], () => text);
    assert.ok(hoverOn(doc, 'phase'));
    assert.equal(count.n, 2, 'the edit is seen');
  } finally {
    count.restore();
  }
});

test('hostile phase names are escaped; past the line cap the hover points to Show Summary without computing', () => {
  const evil = '<img src=x onerror=alert(1)>`**[x](http://e)**';
  const doc = TraceDocument.parse([
    JSON.stringify({ event_type: 'CMD_ENQUEUE', t_cycle: 0, cmd_id: 1, phase: evil }),
    '{"event_type":"CMD_START","t_cycle":1,"cmd_id":1}',
    '{"event_type":"CMD_END","t_cycle":9,"cmd_id":1,"status":"OK"}',
  ].join('\n'));
  const html = marked.parse(hoverOn(doc, 'phase')!) as string;
  assert.ok(!/<img|<a /.test(html), html);
  assert.match(html, /\| commands \| 1 \||<td>1<\/td>/);

  const big = TraceDocument.parse(['{"event_type":"CMD_ENQUEUE","t_cycle":0,"cmd_id":1,"phase":"P"}', ...Array<string>(MAX_HOVER_STATS_LINES).fill('{"event_type":"SRAM_ACCESS","t_cycle":1,"bank_id":0}')].join('\n'));
  const count = countFinishes();
  try {
    assert.match(hoverOn(big, 'phase')!, /more than 200,000 lines: run "NPU Trace: Show Summary"/);
    assert.equal(count.n, 0);
  } finally {
    count.restore();
  }
});
