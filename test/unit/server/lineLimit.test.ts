// The server's line limit: lines over it read as empty, with one diagnostic each; the setting
// is read at each full parse, and an edit under a changed limit parses again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultDiagnosticSettings } from '../../../core/common/settings';
import { DocumentStore } from '../../../server/documents';
import { services } from '../../../server/services';

const wide = `{"event_type":"IRQ_EMIT","t_cycle":"x","pad":"${'p'.repeat(100)}"}`;
const TRACE = ['{"event_type":"IRQ_EMIT","t_cycle":1}', wide, '{"event_type":"IRQ_EMIT","t_cycle":"y"}'].join('\n');

function diagnosticsOf(store: DocumentStore, uri: string, settings = defaultDiagnosticSettings) {
  const e = store.get(uri)!;
  return e.service!.diagnostics(e.model, e.doc, settings).map((d) => `${d.range.start.line} ${d.severity} ${d.code}`);
}

describe('line limit in the server', () => {
  it('a trace line over the limit gets one trace.line-too-long and is not parsed; under a raised limit it is', () => {
    let limit = 100;
    const store = new DocumentStore(services, undefined, () => limit);
    store.open('file:///a.trace.jsonl', 'npu-trace', 1, TRACE);
    assert.deepEqual(diagnosticsOf(store, 'file:///a.trace.jsonl'), ['1 error trace.line-too-long', '2 error trace.wrong-type']);
    limit = 1000;
    store.change('file:///a.trace.jsonl', 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: ' ' }]);
    assert.deepEqual(diagnosticsOf(store, 'file:///a.trace.jsonl'), ['1 error trace.wrong-type', '2 error trace.wrong-type']);
  });

  it('the cap counts the lines over the limit with the rest', () => {
    const store = new DocumentStore(services, undefined, () => 100);
    store.open('file:///b.trace.jsonl', 'npu-trace', 1, [wide, wide, wide, TRACE].join('\n'));
    const d = store.get('file:///b.trace.jsonl')!;
    const out = d.service!.diagnostics(d.model, d.doc, { severity: { 'trace.line-too-long': 'warning' }, maxProblems: 2 });
    assert.deepEqual(out.map((x) => `${x.range.start.line} ${x.severity} ${x.code}`), ['0 information too-many-problems', '0 warning trace.line-too-long', '1 warning trace.line-too-long']);
    assert.match(out[0].message, /^3 further problems not shown/);
  });

  it('a JSON line nesting deeper than 10000 levels gets one trace.too-deep and is not parsed; 10000 levels are parsed', () => {
    const store = new DocumentStore(services);
    const text = ['['.repeat(10_001), `["${'['.repeat(20_000)}"]`, '['.repeat(10_000) + ']'.repeat(10_000)].join('\n');
    store.open('file:///deep.trace.jsonl', 'npu-trace', 1, text);
    assert.deepEqual(diagnosticsOf(store, 'file:///deep.trace.jsonl'), ['0 error trace.too-deep', '1 error trace.not-object', '2 error trace.not-object']);
  });

  it('after an edit the lines over the limit are not looked for again: the diagnostics read only the edited lines, and stay those of a fresh parse', () => {
    const store = new DocumentStore(services, undefined, () => 100);
    const uri = 'file:///kept.trace.jsonl';
    const ok = '{"event_type":"IRQ_EMIT","t_cycle":1}';
    const lines = Array.from({ length: 5000 }, (_, i) => (i % 1000 === 7 ? wide : ok));
    store.open(uri, 'npu-trace', 1, lines.join('\n'));
    diagnosticsOf(store, uri);
    const doc = store.get(uri)!.doc;
    const line = doc.line.bind(doc);
    let reads = 0;
    doc.line = (i: number) => {
      reads++;
      return line(i);
    };
    // A long line pasted above the others (they move down), then a long line made short.
    const edits: [{ line: number; character: number }, { line: number; character: number }, string][] = [
      [{ line: 3, character: 0 }, { line: 3, character: 0 }, `${wide}\n${ok}\n`],
      [{ line: 1009, character: 0 }, { line: 1009, character: wide.length }, ok],
    ];
    let version = 1;
    for (const [start, end, text] of edits) {
      store.change(uri, ++version, [{ range: { start, end }, text }]);
      lines.splice(start.line, end.line - start.line + 1, ...(text + lines[end.line].slice(end.character)).split('\n'));
      const got = diagnosticsOf(store, uri);
      const fresh = new DocumentStore(services, undefined, () => 100);
      fresh.open(uri, 'npu-trace', 1, lines.join('\n'));
      assert.deepEqual(got, diagnosticsOf(fresh, uri));
    }
    assert.deepEqual(diagnosticsOf(store, uri).filter((d) => d.endsWith('line-too-long')).map((d) => d.split(' ')[0]), ['3', '9', '2009', '3009', '4009']);
    // Two changes in one notification, the second on lines the first moved: one update of both.
    store.change(uri, ++version, [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: `${wide}\n` },
      { range: { start: { line: 2009, character: 0 }, end: { line: 2011, character: 0 } }, text: '' },
    ]);
    lines.splice(0, 0, wide);
    lines.splice(2009, 2);
    const fresh = new DocumentStore(services, undefined, () => 100);
    fresh.open(uri, 'npu-trace', 1, lines.join('\n'));
    assert.deepEqual(diagnosticsOf(store, uri), diagnosticsOf(fresh, uri));
    assert.deepEqual(diagnosticsOf(store, uri).filter((d) => d.endsWith('line-too-long')).map((d) => d.split(' ')[0]), ['0', '4', '10', '3008', '4008']);
    assert.ok(reads < 100, `${reads} lines read for three edits and five publishes`);
  });

  it('a systrace line over the limit is a nnapi.line-too-long warning; CMDQ has no line limit', () => {
    const store = new DocumentStore(services, undefined, () => 50);
    store.open('file:///c.systrace', 'nnapi-systrace', 1, `# tracer: nop\n${'x'.repeat(60)}\n`);
    assert.ok(diagnosticsOf(store, 'file:///c.systrace').includes('1 warning nnapi.line-too-long'));
    store.open('file:///d.cmdq.json', 'cmdq', 1, `{"metadata":{"graph_name":"${'g'.repeat(60)}","version":"1","generated_by":"t"},"cmdq":[{"id":0,"opcode":"END","layer_id":null,"deps_before":[]}]}`);
    assert.deepEqual(diagnosticsOf(store, 'file:///d.cmdq.json'), []);
  });
});
