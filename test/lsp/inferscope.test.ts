import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnostic, DocumentSymbol, Hover, Location, MarkupContent } from 'vscode-languageserver-protocol';
import { faultyInferscope, inferscopeTrace, pretty } from '../gen/inferscopeGen';
import { serverPerSuite } from './lspClient';

const TEXT = pretty(inferscopeTrace({ requests: 2, kernels: 2 }));
const lines = TEXT.split('\n');

/** Position of `needle` on the first line (from `from`) that holds it, plus `offset` characters. */
function find(needle: string, from = 0, offset = 1) {
  for (let l = from; l < lines.length; l++) {
    const c = lines[l].indexOf(needle);
    if (c >= 0) return { line: l, character: c + offset };
  }
  throw new Error(`${needle} not found`);
}

describe('inferscope language server over stdio', () => {
  const c = serverPerSuite();

  it('a clean trace has no diagnostics; the faulty one publishes each planted code on its token', async () => {
    assert.deepEqual(await c.open('file:///run.inferscope.json', 'inferscope', TEXT), []);
    const faulty = faultyInferscope();
    const d: Diagnostic[] = await c.open('file:///faulty.inferscope.json', 'inferscope', faulty);
    const dup = d.find((x) => x.code === 'inferscope.duplicate-id')!;
    const fl = faulty.split('\n');
    assert.equal(fl[dup.range.start.line].slice(dup.range.start.character, dup.range.end.character), '"tok_0"');
    assert.ok(dup.relatedInformation?.length);
    assert.ok(d.length >= 12);
  });

  it('edits inside an event (the incremental path) publish what a fresh open of the same text does', async () => {
    const uri = 'file:///edited.inferscope.json';
    assert.deepEqual(await c.open(uri, 'inferscope', TEXT), []);
    // A later event's id becomes a duplicate; then the first event's duration_us 1500 → 1400 is a
    // duration-mismatch, with a new field that moves the text after it (the duplicate's range too).
    const id = find('"id": "h2d_0"', 0, '"id": "'.length);
    let d = await c.change(uri, [{ range: { start: id, end: { line: id.line, character: id.character + 5 } }, text: 'tok_0' }]);
    assert.deepEqual(d.map((x) => [x.code, x.range.start]), [['inferscope.duplicate-id', { line: id.line, character: id.character - 1 }]]);
    const dur = find('"duration_us": 1500', 0, '"duration_us": '.length);
    d = await c.change(uri, [{ range: { start: dur, end: { line: dur.line, character: dur.character + 4 } }, text: '1400, "note": "moves the rest"' }]);
    const edited = lines.map((l, i) => (i === dur.line ? l.replace('1500', '1400, "note": "moves the rest"') : i === id.line ? l.replace('h2d_0', 'tok_0') : l)).join('\n');
    const fresh = await c.open('file:///fresh.inferscope.json', 'inferscope', edited);
    assert.deepEqual(JSON.parse(JSON.stringify(d).replaceAll(uri, 'file:///fresh.inferscope.json')), fresh);
    assert.deepEqual(d.map((x) => [x.code, x.range.start.line]), [['inferscope.duration-mismatch', dur.line], ['inferscope.duplicate-id', id.line]]);
  });

  it('hover on a kernel shows times in µs and ms, its scope path, launch shape and occupancy', async () => {
    const uri = 'file:///run.inferscope.json';
    const h = await c.request<Hover>('textDocument/hover', c.at(uri, find('"attention_forward"')));
    const v = (h.contents as MarkupContent).value;
    assert.match(v, /\*\*gpu\\_kernel\*\* `attention_forward`/);
    assert.match(v, /duration 500 µs \(0\.5 ms\)/);
    assert.match(v, /scope: inference › request 0 › gpu/);
    assert.match(v, /grid \[32, 1, 1\] × block \[256, 1, 1\]/);
    assert.match(v, /occupancy 87%/);
  });

  it('hover on a scope id gives its time range and event count', async () => {
    const uri = 'file:///run.inferscope.json';
    const h = await c.request<Hover>('textDocument/hover', c.at(uri, find('"id": "scope_gpu_0"', 0, 8)));
    const v = (h.contents as MarkupContent).value;
    assert.match(v, /\*\*scope\*\* `scope_gpu_0`/);
    assert.match(v, /6 events \(3–8\)/);
    assert.match(v, /span 2750 µs \(2\.75 ms\)/);
  });

  it('definition and references between parent_id / child_ids and scope ids; event_range to the event', async () => {
    const uri = 'file:///run.inferscope.json';
    const decl = find('"id": "scope_request_0"', 0, 8);
    const parentRef = find('"parent_id": "scope_request_0"', 0, 16);
    const def = await c.request<Location>('textDocument/definition', c.at(uri, parentRef));
    assert.equal(def.range.start.line, decl.line);
    const childRef = find('"scope_gpu_0"', 0, 2);
    const def2 = await c.request<Location>('textDocument/definition', c.at(uri, childRef));
    assert.equal(def2.range.start.line, find('"id": "scope_gpu_0"').line);
    const refs = await c.request<Location[]>('textDocument/references', { ...c.at(uri, decl), context: { includeDeclaration: true } });
    // Its declaration, inference's child_ids element, and the parent_id of prep_0 and gpu_0.
    assert.equal(refs.length, 4);
    assert.equal(refs[0].range.start.line, decl.line);
    // event_range [3, 8] of scope_gpu_0: index 3 leads to event 3 (the H2D copy).
    const gpu = find('"id": "scope_gpu_0"').line;
    const rangeLine = find('"event_range"', gpu).line;
    const three = { line: rangeLine + 1, character: lines[rangeLine + 1].indexOf('3') };
    const ev = await c.request<Location>('textDocument/definition', c.at(uri, three));
    assert.match(lines[ev.range.start.line + 1], /"id": "h2d_0"/);
  });

  it('the outline is the scope tree with events per type under each scope', async () => {
    const uri = 'file:///run.inferscope.json';
    const syms = await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(syms.map((s) => s.name), ['inference']);
    const req = syms[0].children!;
    assert.deepEqual(req.map((s) => s.name), ['request 0', 'request 1']);
    const r0 = req[0].children!;
    assert.deepEqual(r0.map((s) => s.name), ['preprocess', 'gpu', 'memory_event']);
    assert.deepEqual(r0[1].children!.map((s) => `${s.name} ${s.detail}`), ['h2d_copy 1', 'gpu_kernel 4', 'd2h_copy 1']);
  });
});
