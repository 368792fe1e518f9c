// Bidirectional-text controls (Trojan Source, CVE-2021-42574) and other controls in values from a
// file, and in a file's name, reach no output raw (#29 item 13): they are shown as visible escapes
// (`\u202e`, `\x1b`, `\x0a`) by the one escaper of visible text (core/common/escape.ts), in the
// text, GitHub and SARIF outputs of `check`, the DOT of `cmdq-graph`, and the server's hovers and
// outlines. Inputs are generated here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentSymbol, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { serverPerSuite } from '../lsp/lspClient';
import { runCliLimited, scratch } from './limits';

/** Every bidirectional formatting character of Unicode TR9: embeddings, overrides, isolates, marks. */
const BIDI = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
const BIDI_RE = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** A value that reads "ok" on screen while it holds the opposite, with a terminal escape and line breaks. */
const EVIL = `ok\u202e!liaf\u202c \u001b[2K\u0007\r\n${BIDI}`;
const J = JSON.stringify(EVIL);

/** The escapes a reader sees instead: every bidi character and control, by its code. */
const VISIBLE = ['\\u202e', '\\u202c', '\\x1b', '\\x07', '\\x0a', '\\u2066', '\\u200f', '\\u061c'];

function assertVisible(text: string, where: string): void {
  assert.ok(!BIDI_RE.test(text), `${where}: a raw bidi control in ${JSON.stringify(text.slice(0, 400))}`);
  for (const v of VISIBLE) assert.ok(text.includes(v), `${where}: ${v} not shown in ${JSON.stringify(text.slice(0, 400))}`);
}

/** A trace with the value in a command's type, phase and layer, and in a simulator ERROR msg. */
const TRACE = [
  '{"event_type":"TRACE_META","version":"1.0","clock_ghz":2}',
  `{"event_type":"CMD_ENQUEUE","t_cycle":1,"cmd_id":1,"cmd_type":${J},"phase":${J},"layer_id":${J}}`,
  '{"event_type":"CMD_START","t_cycle":2,"cmd_id":1}',
  `{"event_type":"ERROR","t_cycle":3,"cmd_id":1,"component":"TE","code":"E1","msg":${J}}`,
  '{"event_type":"CMD_END","t_cycle":4,"cmd_id":1,"status":"OK"}',
].join('\n') + '\n';

/** The golden queue (CmdqGenerator's layout) with the value as a layer and an entry's unknown opcode. */
const CMDQ = `{
  "cmdq": [
    { "opcode": "DMA_LOAD_TILE", "id": 0, "layer_id": ${J}, "deps_before": [], "tensor_role": "ifm", "qbits": 8, "dram_addr": 0, "spm_bank": 0, "spm_offset": 0, "num_elements": 4096 },
    { "opcode": ${JSON.stringify(`VE_${EVIL}_TILE`)}, "id": 1, "layer_id": ${J}, "deps_before": [0], "ve_id": 0, "length": 4096, "qbits_activation": 8 },
    { "opcode": "END", "id": 2, "layer_id": null, "deps_before": [1] }
  ]
}
`;

/** An atrace (NNAPI systrace) scope whose name holds the value (no line break: a systrace row is a line). */
const ONE_LINE = EVIL.replace(/[\r\n]/g, '');
const SYSTRACE = [
  '# tracer: nop',
  '#',
  '#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION',
  `  NeuralNetworks-1000  ( 1000) [000] ...1   100.000001: tracing_mark_write: B|1000|[NN_LA_PE]exec${ONE_LINE}`,
  '  NeuralNetworks-1000  ( 1000) [000] ...1   100.000002: tracing_mark_write: E',
].join('\n') + '\n';

let tmp: ReturnType<typeof scratch>;
let trace = '';
before(() => {
  tmp = scratch();
  // A directory whose name holds a line break and a right-to-left override.
  const dir = join(tmp.dir, `run\n\u202e1`);
  mkdirSync(dir);
  trace = join(dir, 'evil.trace.jsonl');
  writeFileSync(trace, TRACE);
});
after(() => tmp.done());

describe('bidi and control characters in the CLI outputs', () => {
  it('text: the file name and the message show them as escapes, one line per diagnostic', async () => {
    const r = await runCliLimited(['check', trace], 20_000);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.ok(lines.length >= 1, r.stdout);
    for (const l of lines) {
      assert.ok(l.startsWith(`${tmp.dir}/run\\x0a\\u202e1/evil.trace.jsonl:`), `the name as it is, escaped: ${JSON.stringify(l)}`);
      assert.ok(!CONTROL_RE.test(l), JSON.stringify(l));
    }
    assertVisible(r.stdout, 'text');
  });

  it('GitHub annotations: escaped in the file property and the message', async () => {
    const r = await runCliLimited(['check', '--format', 'github', trace], 20_000);
    assert.equal(r.code, 1, r.stderr);
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error '));
    assert.ok(errors.length >= 1, r.stdout);
    for (const l of errors) assert.ok(l.includes('run\\x0a\\u202e1/evil.trace.jsonl'), l);
    assertVisible(r.stdout, 'github');
  });

  it('SARIF: every message text shows them as escapes', async () => {
    const r = await runCliLimited(['check', '--format', 'sarif', trace], 20_000);
    assert.equal(r.code, 1, r.stderr);
    const log = JSON.parse(r.stdout) as { runs: { results: { message: { text: string } }[] }[] };
    const texts = log.runs[0].results.map((x) => x.message.text).join('\n');
    assertVisible(texts, 'sarif');
    assert.ok(!BIDI_RE.test(r.stdout), 'no raw bidi control anywhere in the log');
  });

  it('cmdq-graph --dot: labels show them as escapes', async () => {
    const file = join(tmp.dir, 'evil.cmdq.json');
    writeFileSync(file, CMDQ);
    const r = await runCliLimited(['cmdq-graph', '--dot', file], 20_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^digraph/);
    assertVisible(r.stdout, 'dot');
    // One DOT statement per line: no label broke its line.
    for (const l of r.stdout.split('\n')) assert.ok(!CONTROL_RE.test(l), JSON.stringify(l));
  });
});

describe('bidi and control characters in the language server', () => {
  const c = serverPerSuite();

  it('a hover on a command shows them as escapes, and so do the diagnostics', async () => {
    const uri = 'file:///bidi/evil.trace.jsonl';
    const diags = await c.open(uri, 'npu-trace', TRACE);
    assert.ok(diags.length >= 1);
    for (const d of diags) assert.ok(!BIDI_RE.test(d.message), d.message);
    const line = TRACE.split('\n')[1];
    const h = await c.request<Hover | null>('textDocument/hover', c.at(uri, { line: 1, character: line.indexOf('"cmd_id":1') + 10 }));
    assert.ok(h, 'a hover');
    assertVisible((h.contents as MarkupContent).value, 'hover');
  });

  it('a hover on a CMDQ entry and on an InferScope event shows them as escapes', async () => {
    const cmdq = 'file:///bidi/hover.cmdq.json';
    const diags = await c.open(cmdq, 'cmdq', CMDQ);
    for (const d of diags) assert.ok(!BIDI_RE.test(d.message), d.message);
    const lines = CMDQ.split('\n');
    const h = await c.request<Hover | null>('textDocument/hover', c.at(cmdq, { line: 3, character: lines[3].indexOf('"id": 1') + 6 }));
    assert.ok(h, 'a CMDQ hover');
    assert.ok(!BIDI_RE.test((h.contents as MarkupContent).value), (h.contents as MarkupContent).value);
    assert.ok((h.contents as MarkupContent).value.includes('\\u202e'), (h.contents as MarkupContent).value);
    const text = readFileSync(join(__dirname, '../../examples/llm-requests.inferscope.json'), 'utf8').replace('"name": "tokenize"', `"name": ${J}`);
    const is = 'file:///bidi/hover.inferscope.json';
    await c.open(is, 'inferscope', text);
    const at = text.split('\n').findIndex((l) => l.includes('"name": "ok'));
    const hi = await c.request<Hover | null>('textDocument/hover', c.at(is, { line: at, character: text.split('\n')[at].indexOf(': ') + 3 }));
    assert.ok(hi, 'an InferScope hover');
    assert.ok(!BIDI_RE.test((hi.contents as MarkupContent).value), (hi.contents as MarkupContent).value);
    assert.ok((hi.contents as MarkupContent).value.includes('\\u202e'), (hi.contents as MarkupContent).value);
  });

  const names = (syms: DocumentSymbol[]): string => syms.map((s) => `${s.name}\n${s.detail ?? ''}\n${names(s.children ?? [])}`).join('\n');
  const outline = async (uri: string, languageId: string, text: string): Promise<string> => {
    await c.open(uri, languageId, text);
    return names(await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } }));
  };

  it('the NPU trace outline shows ESC, BEL, CR, LF and bidi controls as escapes', async () => {
    const all = await outline('file:///bidi/outline.trace.jsonl', 'npu-trace', TRACE);
    assertVisible(all, 'NPU outline');
    for (const l of all.split('\n')) assert.ok(!CONTROL_RE.test(l), JSON.stringify(l));
  });

  it('the CMDQ outline shows them as escapes', async () => {
    assertVisible(await outline('file:///bidi/outline.cmdq.json', 'cmdq', CMDQ), 'CMDQ outline');
  });

  it('the NNAPI outline shows them as escapes', async () => {
    const all = await outline('file:///bidi/outline.systrace', 'nnapi-systrace', SYSTRACE);
    assert.ok(!BIDI_RE.test(all), JSON.stringify(all));
    for (const v of ['\\u202e', '\\x1b', '\\x07', '\\u061c']) assert.ok(all.includes(v), `${v} in ${JSON.stringify(all)}`);
  });
});
