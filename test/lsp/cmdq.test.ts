import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import type {
  CodeAction, CodeLens, CompletionItem, Diagnostic, DocumentHighlight, DocumentSymbol, Hover, Location, MarkupContent, TextEdit,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { serverPerSuite } from './lspClient';

const GOLDEN = readFileSync(resolve(__dirname, '../fixtures/cmdq/golden.cmdq.json'), 'utf8');
const lines = GOLDEN.split('\n');
/** Position of the n-th occurrence of `needle` on a line (0-based line). */
function at(line: number, needle: string, nth = 0, offset = 0) {
  let c = -1;
  for (let k = 0; k <= nth; k++) c = lines[line].indexOf(needle, c + 1);
  assert.ok(c >= 0, `${needle} on line ${line}`);
  return { line, character: c + offset };
}

function apply(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x', 'cmdq', 1, text), edits);
}

describe('cmdq language server over stdio', () => {
  const c = serverPerSuite();

  it('the golden CMDQ has no diagnostics; breaking a dependency by typing reports it on the token', async () => {
    const uri = 'file:///golden.cmdq.json';
    assert.deepEqual(await c.open(uri, 'cmdq', GOLDEN), []);
    // Entry 3 (line 6) now waits for 4, later in the queue: forward dep and a cycle 3 → 4 → 3.
    const p = at(6, '[2]', 0, 1);
    const diags = await c.change(uri, [{ range: { start: p, end: { line: 6, character: p.character + 1 } }, text: '4' }]);
    assert.deepEqual(diags.map((d) => [d.code, d.range.start.line, d.range.start.character]).sort(), [
      ['cmdq.dep-cycle', 6, p.character], ['cmdq.dep-cycle', 7, at(7, '[3]', 0, 1).character], ['cmdq.end-deps', 8, at(8, '[4]').character],
      ['cmdq.forward-dep', 6, p.character],
    ]);
    const cyc = diags.find((d) => d.code === 'cmdq.dep-cycle' && d.range.start.line === 6)!;
    assert.match(cyc.message, /3 → 4 → 3/);
    assert.equal(cyc.relatedInformation?.[0].location.range.start.line, 7);
    const undone = await c.change(uri, [{ range: { start: p, end: { line: 6, character: p.character + 1 } }, text: '2' }]);
    assert.deepEqual(undone, []);
  });

  it('a series of incremental edits ends with the diagnostics of the same text opened fresh', async () => {
    const uri = 'file:///series.cmdq.json';
    await c.open(uri, 'cmdq', GOLDEN);
    const p = at(5, '[0, 1]', 0, 5);
    // Type a dependency, insert a copy of entry 1 as a new line, then delete the first entry.
    await c.change(uri, [{ range: { start: p, end: p }, text: ', 3' }]);
    await c.change(uri, [{ range: { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }, text: `${lines[4]}\n` }]);
    const last = await c.change(uri, [{ range: { start: { line: 3, character: 0 }, end: { line: 4, character: 0 } }, text: '' }]);
    const text = [lines[0], lines[1], lines[2], lines[4], lines[4], lines[5].replace('[0, 1]', '[0, 1, 3]'), ...lines.slice(6)].join('\n');
    const fresh = await c.open('file:///fresh.cmdq.json', 'cmdq', text);
    assert.deepEqual(last.map((d) => [d.code, d.range, d.message]), fresh.map((d) => [d.code, d.range, d.message]));
    assert.ok(last.some((d) => d.code === 'cmdq.forward-dep') && last.some((d) => d.code === 'cmdq.id-mismatch'));
  });

  it('hover on an id and on a deps_before number shows the entry and its dependents', async () => {
    const uri = 'file:///hover.cmdq.json';
    await c.open(uri, 'cmdq', GOLDEN);
    const onDep = await c.request<Hover>('textDocument/hover', c.at(uri, at(5, '[0, 1]', 0, 4)));
    const md = (onDep.contents as MarkupContent).value;
    assert.match(md, /entry 1\*\* · `DMA_LOAD_TILE` · layer `ffn_0`/);
    assert.match(md, /wgt DRAM → SPM: 4096 × 8 bit = 4096 B, SPM bank 1 @ 0/);
    assert.match(md, /1 entry depends on it: 2 · depth 0/);
    assert.deepEqual(onDep.range, { start: at(5, '[0, 1]', 0, 4), end: at(5, '[0, 1]', 0, 5) });
    const onId = await c.request<Hover>('textDocument/hover', c.at(uri, at(5, '"id": 2', 0, 6)));
    const md2 = (onId.contents as MarkupContent).value;
    assert.match(md2, /TE_GEMM_TILE on TE 0: m×n×k = 64×64×64/);
    assert.match(md2, /waits for: 0 \(DMA_LOAD_TILE\), 1 \(DMA_LOAD_TILE\)/);
    assert.match(md2, /depth 1/);
    assert.equal(await c.request('textDocument/hover', c.at(uri, at(5, 'te_id'))), null);
  });

  it('definition from a deps_before number goes to that entry; references and highlights come back', async () => {
    const uri = 'file:///nav.cmdq.json';
    await c.open(uri, 'cmdq', GOLDEN);
    const def = await c.request<Location>('textDocument/definition', c.at(uri, at(6, '[2]', 0, 1)));
    assert.deepEqual(def, { uri, range: { start: at(5, '"id": 2', 0, 6), end: at(5, '"id": 2', 0, 7) } });
    const refs = await c.request<Location[]>('textDocument/references', { ...c.at(uri, at(3, '"id": 0', 0, 6)), context: { includeDeclaration: false } });
    assert.deepEqual(refs.map((r) => r.range.start), [at(5, '[0, 1]', 0, 1)]);
    const withDecl = await c.request<Location[]>('textDocument/references', { ...c.at(uri, at(5, '[0, 1]', 0, 1)), context: { includeDeclaration: true } });
    assert.deepEqual(withDecl.map((r) => r.range.start), [at(3, '"id": 0', 0, 6), at(5, '[0, 1]', 0, 1)]);
    const hl = await c.request<DocumentHighlight[]>('textDocument/documentHighlight', c.at(uri, at(7, '"id": 4', 0, 6)));
    assert.deepEqual(hl.map((h) => [h.range.start.line, h.kind]), [[7, 3], [8, 2]]);
  });

  it('outline groups entries by layer_id; code lens shows dependents and depth', async () => {
    const uri = 'file:///outline.cmdq.json';
    await c.open(uri, 'cmdq', GOLDEN);
    const syms = await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(syms.map((s) => [s.name, s.children!.map((x) => x.name)]), [
      ['ffn_0', ['0 DMA_LOAD_TILE', '1 DMA_LOAD_TILE', '2 TE_GEMM_TILE', '4 DMA_STORE_TILE']],
      ['ffn_0_ln', ['3 VE_LAYERNORM_TILE']],
      ['(no layer)', ['5 END']],
    ]);
    // A chain: no entry fans out, so no lens says "1 dependent" on every line.
    assert.deepEqual(await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } }), []);
  });

  it('a code lens above each entry that two or more entries wait for', async () => {
    const uri = 'file:///fanout.cmdq.json';
    // The store (entry 4) waits for the GEMM too: entry 2 now has two dependents.
    await c.open(uri, 'cmdq', GOLDEN.replace('"id": 4, "layer_id": "ffn_0",    "deps_before": [3]', '"id": 4, "layer_id": "ffn_0",    "deps_before": [2, 3]'));
    const lenses = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.deepEqual(lenses.map((l) => [l.range.start.line, l.command!.title]), [[5, '2 dependents · depth 1']]);
  });

  it('completes opcodes, the fields an opcode needs, and earlier ids inside deps_before', async () => {
    const uri = 'file:///complete.cmdq.json';
    const text = GOLDEN.replace('    { "opcode": "END"', '    { "opcode": "VE_GELU_TILE", "id": 5, "layer_id": "x", "deps_before": [4, ], "ve_id": 0, "length": 1, "qbits_activation": 8 },\n    { "opcode": "END"')
      .replace('"id": 5, "layer_id": null', '"id": 6, "layer_id": null');
    await c.open(uri, 'cmdq', text);
    const tl = text.split('\n');
    const depPos = { line: 8, character: tl[8].indexOf('[4, ]') + 4 };
    const deps = await c.request<CompletionItem[]>('textDocument/completion', c.at(uri, depPos));
    assert.deepEqual(deps.map((i) => i.label), ['3', '2', '1', '0']);
    assert.equal(deps[0].detail, 'VE_LAYERNORM_TILE · ffn_0_ln');
    const opPos = { line: 8, character: tl[8].indexOf('"VE_GELU_TILE"') + 1 };
    const ops = await c.request<CompletionItem[]>('textDocument/completion', c.at(uri, opPos));
    assert.ok(ops.map((i) => i.label).includes('DMA_LOAD_TILE'));
    const te = ops.find((i) => i.label === 'TE_GEMM_TILE')!;
    assert.equal(apply(tl[8], [{ ...(te.textEdit as TextEdit), range: { start: { line: 0, character: (te.textEdit as TextEdit).range.start.character }, end: { line: 0, character: (te.textEdit as TextEdit).range.end.character } } }]),
      tl[8].replace('"VE_GELU_TILE"', '"TE_GEMM_TILE"'));
    // A new key in an entry that has only an opcode: the fields that opcode needs.
    const partial = text.replace('"deps_before": [3],    "tensor_role": "ofm", "qbits": 8, "dram_addr": 131072, "spm_bank": 2, "spm_offset": 0, "num_elements": 4096 }', '"deps_before": [3], ');
    await c.change(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: tl.length, character: 0 } }, text: partial }]);
    const pl = partial.split('\n');
    const keyPos = { line: 7, character: pl[7].length };
    const fields = await c.request<CompletionItem[]>('textDocument/completion', c.at(uri, keyPos));
    const labels = fields.map((i) => i.label);
    for (const f of ['tensor_role', 'qbits', 'dram_addr', 'spm_bank', 'spm_offset', 'num_elements']) assert.ok(labels.includes(f), f);
    assert.ok(!labels.includes('opcode') && !labels.includes('deps_before'));
    assert.equal((fields.find((i) => i.label === 'qbits')!.textEdit as TextEdit).newText, '"qbits": 8');
  });

  async function fixes(uri: string, text: string, code: string): Promise<{ diags: Diagnostic[]; actions: CodeAction[] }> {
    const diags = await c.open(uri, 'cmdq', text);
    const d = diags.filter((x) => x.code === code);
    assert.ok(d.length > 0, `${code} in ${JSON.stringify(diags.map((x) => x.code))}`);
    const actions = await c.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d[0].range, context: { diagnostics: d } });
    return { diags, actions };
  }

  it('quick fix: renumber ids and rewrite every deps_before in one edit that changes nothing else', async () => {
    // Entry 1 deleted: ids 2..5 now sit at indexes 1..4.
    const text = GOLDEN.split('\n').filter((_, i) => i !== 4).join('\n').replace('"deps_before": [0, 1]', '"deps_before": [0]');
    const uri = 'file:///renumber.cmdq.json';
    const { actions } = await fixes(uri, text, 'cmdq.id-mismatch');
    const a = actions.find((x) => /Renumber/.test(x.title))!;
    assert.equal(actions.filter((x) => /Renumber/.test(x.title)).length, 1);
    const edits = a.edit!.changes![uri];
    const fixed = apply(text, edits);
    const expected = text.replace('"id": 2', '"id": 1').replace('"id": 3', '"id": 2').replace('"id": 4', '"id": 3').replace('"id": 5', '"id": 4')
      .replace('"deps_before": [2],', '"deps_before": [1],').replace('"deps_before": [3],', '"deps_before": [2],').replace('"deps_before": [4] }', '"deps_before": [3] }');
    assert.equal(fixed, expected);
    assert.ok(edits.every((e) => /^\d+$/.test(e.newText)), 'only number tokens are rewritten');
    // Sent back as the editor would apply it: bottom-up, so earlier ranges stay valid.
    const changes = [...edits].sort((x, y) => y.range.start.line - x.range.start.line || y.range.start.character - x.range.start.character)
      .map((e) => ({ range: e.range, text: e.newText }));
    assert.deepEqual(await c.change(uri, changes), []);
  });

  it('quick fix: remove a duplicate and a self dependency', async () => {
    const text = GOLDEN.replace('"deps_before": [0, 1]', '"deps_before": [0, 1, 1]').replace('"deps_before": [2],', '"deps_before": [3, 2],');
    const dup = await fixes('file:///dup.cmdq.json', text, 'cmdq.duplicate-dep');
    assert.equal(dup.actions[0].title, 'Remove dependency 1');
    const t1 = apply(text, dup.actions[0].edit!.changes!['file:///dup.cmdq.json']);
    assert.equal(t1, text.replace('[0, 1, 1]', '[0, 1]'));
    const self = await fixes('file:///self.cmdq.json', t1, 'cmdq.self-dep');
    assert.equal(self.actions[0].title, 'Remove dependency 3');
    assert.equal(apply(t1, self.actions[0].edit!.changes!['file:///self.cmdq.json']), GOLDEN);
  });

  it('quick fix: append a missing END depending on every leaf', async () => {
    const text = GOLDEN.replace('    { "opcode": "DMA_STORE_TILE",', '    { "opcode": "DMA_STORE_TILE",').split('\n').filter((l) => !l.includes('"END"')).join('\n')
      .replace('"num_elements": 4096 },\n  ]', '"num_elements": 4096 }\n  ]');
    const uri = 'file:///end.cmdq.json';
    const { actions } = await fixes(uri, text, 'cmdq.missing-end');
    const fixed = apply(text, actions[0].edit!.changes![uri]);
    assert.equal(fixed, GOLDEN.replace('{ "opcode": "END",               "id": 5, "layer_id": null,       "deps_before": [4] }', '{ "opcode": "END", "id": 5, "layer_id": null, "deps_before": [4] }'));
  });
});
