// What the trace service does ahead of requests so that they stay cheap after an edit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DocumentSymbol } from 'vscode-languageserver';
import type { TraceDocument } from '../../../core/trace/document';
import { DocumentStore } from '../../../server/documents';
import { services } from '../../../server/services';

const TRACE = [
  '{"event_type":"CMD_ENQUEUE","t_cycle":1,"cmd_id":1,"cmd_type":"MATMUL"}',
  '{"event_type":"CMD_START","t_cycle":2,"cmd_id":1}',
  '{"event_type":"CMD_ENQUEUE","t_cycle":3,"cmd_id":2,"cmd_type":"GELU"}',
].join('\n');

function outline(store: DocumentStore, uri: string): DocumentSymbol[] {
  const e = store.get(uri)!;
  return e.service!.documentSymbols!(e.model as TraceDocument, e.doc);
}

describe('trace service', () => {
  it('opening a trace loads the number formats the hover uses (their first use costs tens of ms)', () => {
    const calls: unknown[][] = [];
    const original = Number.prototype.toLocaleString;
    Number.prototype.toLocaleString = function (this: number, ...args: unknown[]) {
      calls.push(args);
      return original.apply(this, args as Parameters<typeof original>);
    };
    try {
      const store = new DocumentStore(services);
      store.open('file:///warm.trace.jsonl', 'npu-trace', 1, TRACE);
      store.get('file:///warm.trace.jsonl');
    } finally {
      Number.prototype.toLocaleString = original;
    }
    assert.ok(calls.some((a) => a[0] === 'en-US' && a[1] === undefined), JSON.stringify(calls));
    assert.ok(calls.some((a) => a[0] === 'en-US' && (a[1] as { maximumFractionDigits?: number } | undefined)?.maximumFractionDigits === 3));
  });

  it('the outline is built once per version: a second request gets the same answer; an edit gives a new one', () => {
    const store = new DocumentStore(services);
    const uri = 'file:///outline.trace.jsonl';
    store.open(uri, 'npu-trace', 1, TRACE);
    const first = outline(store, uri);
    assert.equal(outline(store, uri), first);
    store.change(uri, 2, [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: '{"event_type":"CMD_END","t_cycle":2,"cmd_id":1}\n' }]);
    const second = outline(store, uri);
    assert.notEqual(second, first);
    assert.deepEqual(second.map((s) => [s.name, s.range.start.line, s.range.end.line]), [['cmd 1 MATMUL', 0, 2], ['cmd 2 GELU', 3, 3]]);
    assert.equal(outline(store, uri), second);
  });
});
