import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyze } from '../../../core/inferscope/analyze';
import { eventLines } from '../../../core/inferscope/citations';
import { InferscopeDocument } from '../../../core/inferscope/document';
import { CITES, markdownReport, toHtml } from '../../../core/inferscope/reportOutput';
import { MAX_CITED } from '../../../core/inferscope/rules';
import { pretty } from '../../gen/inferscopeGen';

type Ev = Record<string, unknown>;
const ev = (id: string, type: string, name: string, a: number, b: number, metadata: Ev = {}): Ev =>
  ({ id, type, name, timestamp_start_us: a, timestamp_end_us: b, duration_us: b - a, metadata });

describe('findings cite the events they are about', () => {
  // CPU-bound: two CPU calls (tok_b longer than tok_a), one kernel, a 300 µs gap before the copy.
  const text = pretty({ format_version: '1.0', events: [
    ev('tok_a', 'cpu_call', 'tokenize', 0, 300, { thread_id: 1 }),
    ev('tok_b', 'cpu_call', 'collate', 300, 800, { thread_id: 1 }),
    ev('k', 'gpu_kernel', 'gemm', 800, 900, { device_id: 0, stream_id: 0 }),
    ev('out', 'd2h_copy', 'copy_out', 1200, 1300, { device_id: 0 }),
  ] });
  const doc = InferscopeDocument.parse(text);
  const a = analyze(doc);

  it('the bottleneck cites its category\'s events, most time first; the idle suggestion the events around the longest gap', () => {
    assert.equal(a.bottleneck.type, 'cpu_bound');
    assert.deepEqual(a.bottleneck.event_ids, ['tok_b', 'tok_a']);
    assert.deepEqual(a.suggestions.find((s) => s.action === 'Overlap CPU preprocessing with GPU work')!.event_ids, ['tok_b', 'tok_a']);
    assert.deepEqual(a.suggestions.find((s) => s.action === 'Remove idle gaps between requests')!.event_ids, ['k', 'out']);
  });

  it('at most MAX_CITED ids, and the report lists each finding\'s ids on a line of its own', () => {
    const many = InferscopeDocument.parse(pretty({ format_version: '1.0', events: Array.from({ length: 30 }, (_, i) => ev(`c${i}`, 'cpu_call', 'prep', i * 10, i * 10 + 10 + i, { thread_id: i })) }));
    const b = analyze(many);
    assert.equal(b.bottleneck.event_ids.length, MAX_CITED);
    const { text: md, citations } = markdownReport(a, 't.json');
    const lines = md.split('\n');
    assert.ok(citations.length >= 2);
    assert.deepEqual(citations[0].ids, a.bottleneck.event_ids);
    assert.equal(lines[citations[0].line], `- ${CITES}\`tok_b\`, \`tok_a\``);
    for (const c of citations) assert.ok(lines[c.line].trimStart().startsWith(`- ${CITES}`), lines[c.line]);
  });

  it('ids resolve to the first line of their event (the line the timeline draws it from), skipping unknown ones', () => {
    const lines = text.split('\n');
    const got = eventLines(doc, ['out', 'gone', 'tok_a']);
    assert.equal(got.length, 2);
    assert.equal(lines[got[0]].trim(), '{');
    assert.match(lines[got[0] + 1], /"id": "out"/);
    assert.match(lines[got[1] + 1], /"id": "tok_a"/);
  });

  it('the HTML report lists each finding\'s ids; with a link function each list is one link, its href escaped', () => {
    const plain = toHtml(a, 't.json');
    assert.match(plain, /<p class="cite">Events: <code>tok_b<\/code>, <code>tok_a<\/code><\/p>/);
    assert.doesNotMatch(plain, /<a /);
    const seen: string[][] = [];
    const linked = toHtml(a, 't.json', (ids) => {
      seen.push([...ids]);
      return `command:x?${encodeURIComponent(JSON.stringify(ids))}"><script>`;
    });
    assert.deepEqual(seen[0], a.bottleneck.event_ids);
    assert.equal(seen.length, 1 + a.suggestions.filter((s) => s.event_ids.length).length);
    assert.match(linked, /<a href="command:x\?%5B%22tok_b%22%2C%22tok_a%22%5D&#34;&#62;&#60;script&#62;" title="Show these events in the timeline">Events: <code>tok_b<\/code>/);
    assert.doesNotMatch(linked, /<script/);
    // No link where the function gives none.
    assert.doesNotMatch(toHtml(a, 't.json', () => undefined), /<a /);
  });

  it('ids quoted in the HTML report are escaped like every file value', () => {
    const evil = InferscopeDocument.parse(pretty({ format_version: '1.0', events: [ev('<b onclick=x>', 'cpu_call', 'p', 0, 900, { thread_id: 1 }), ev('k', 'gpu_kernel', 'g', 900, 1000, { device_id: 0, stream_id: 0 })] }));
    const html = toHtml(analyze(evil), 't.json', () => 'command:x');
    assert.match(html, /<code>&#60;b onclick=x&#62;<\/code>/);
    assert.doesNotMatch(html, /<b onclick/);
  });
});
