// Values from a trace reaching Markdown and messages: hovered over the built server on every token,
// a trace whose string fields are hostile renders inert Markdown with the hover's own structure
// intact; numbers JSON.parse cannot keep are quoted by the built CLI with the digits of the file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { scanLine } from '../../core/json/scanner';
import { serverPerSuite } from '../lsp/lspClient';
import { HOSTILE_VALUES } from '../unit/common/hostileValues';
import { runCliLimited, scratch } from './limits';

const VALUES = [
  ...HOSTILE_VALUES,
  // An OSC 8 terminal hyperlink and a clear-screen, and a value far longer than any hover shows.
  '\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007\u001b[2J',
  `#${'|'.repeat(50)}\n${'x'.repeat(100_000)}`,
];

/** Every line of one command whose string fields all hold `v`; ids are unique per value. */
function linesFor(v: string, i: number): string[] {
  const t = 1000 * (i + 1);
  const cmd = i + 1;
  const job = 100 + i;
  const tx = 200 + i;
  const s = JSON.stringify(v);
  return [
    `{"event_type":"CMD_ENQUEUE","t_cycle":${t},"cmd_id":${cmd},"cmd_type":${s},"phase":${s},"layer_id":${s},"model_name":${s}}`,
    `{"event_type":"CMD_START","t_cycle":${t + 1},"cmd_id":${cmd},"phase":${s}}`,
    `{"event_type":"JOB_ISSUE","t_cycle":${t + 2},"job_id":${job},"cmd_id":${cmd},"job_type":${s},"op_type":${s}}`,
    `{"event_type":"TE_START","t_cycle":${t + 3},"job_id":${job},"op_type":${s}}`,
    `{"event_type":"TE_END","t_cycle":${t + 4},"job_id":${job}}`,
    `{"event_type":"DMA_START","t_cycle":${t + 5},"tx_id":${tx},"channel":${s},"direction":${s},"cmd_id":${cmd},"size_bytes":64}`,
    `{"event_type":"NOC_TX_START","t_cycle":${t + 5},"tx_id":${tx},"link_id":${s}}`,
    `{"event_type":"NOC_TX_END","t_cycle":${t + 6},"tx_id":${tx}}`,
    `{"event_type":"DMA_END","t_cycle":${t + 6},"tx_id":${tx},"direction":${s}}`,
    `{"event_type":"JOB_DONE","t_cycle":${t + 7},"job_id":${job}}`,
    `{"event_type":"ERROR","t_cycle":${t + 8},"cmd_id":${cmd},"component":${s},"code":${s},"msg":${s}}`,
    `{"event_type":"CMD_END","t_cycle":${t + 9},"cmd_id":${cmd},"status":${s}}`,
  ];
}

const TRACE_LINES = ['{"event_type":"TRACE_META","version":"1.0","clock_ghz":2}', ...VALUES.flatMap(linesFor)];

function html(md: string): string {
  return marked.parse(md, { gfm: true, async: false });
}

const count = (s: string, needle: string) => s.split(needle).length - 1;

/** The rendered hover holds no markup a value could have made, and exactly the structure the hover writes. */
function assertInert(md: string, where: string): void {
  const out = html(md);
  for (const tag of ['<a', '<img', '<h1', '<h2', '<h3', '<h4', '<h5', '<h6', '<script', '<pre', '<hr', '<del', '<blockquote', '<ul', '<ol', '<input']) {
    assert.ok(!out.includes(tag), `${where}: ${tag} in\n${out}`);
  }
  assert.equal(count(out, '<strong>'), 1, `${where}: only the hover's own title is bold\n${out}`);
  assert.ok(count(out, '<table>') <= 1, `${where}: a forged table\n${out}`);
  if (md.startsWith('**Command ')) {
    // The hover's own table: a header and ten rows of two cells.
    assert.equal(count(out, '<tr>'), 11, `${where}: rows forged or lost\n${out}`);
    assert.equal(count(out, '<td>') + count(out, '<td '), 20, `${where}: cells forged or lost\n${out}`);
    assert.match(out, /<td>phase<\/td>\s*<td>[^<]*<\/td>/, `${where}: the phase row lost its value\n${out}`);
  } else if (/^\*\*(Job|Transfer) /.test(md)) {
    const rows = count(out, '<tr>');
    assert.ok(rows >= 2, `${where}: no legs\n${out}`);
    assert.equal(count(out, '<td>') + count(out, '<td '), 5 * (rows - 1), `${where}: cells forged or lost\n${out}`);
  } else if (/^\*\*(Phase|Layer)\*\* /.test(md) && md.includes('| commands |')) {
    // The metrics of a phase or layer (core/trace/groupHover.ts): a header and five rows of two cells.
    assert.equal(count(out, '<tr>'), 6, `${where}: rows forged or lost\n${out}`);
    assert.equal(count(out, '<td>') + count(out, '<td '), 10, `${where}: cells forged or lost\n${out}`);
  } else {
    assert.equal(count(out, '<table>'), 0, `${where}: a table where the hover writes none\n${out}`);
  }
}

describe('hostile values in trace hovers (built server)', () => {
  const c = serverPerSuite();

  it('renders inert Markdown on every key and value of every line', async () => {
    const uri = 'file:///hostile-hover.trace.jsonl';
    const diags = await c.open(uri, 'npu-trace', TRACE_LINES.join('\n') + '\n');
    // Messages quoting the values are one line each (the simulator msg keeps its own breaks) and short.
    for (const d of diags) {
      const m = d.code === 'trace.reported-error' ? d.message.replace(/\n/g, ' ') : d.message;
      // eslint-disable-next-line no-control-regex -- looking for control characters is the point
      assert.ok(!/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(m), `control character in ${JSON.stringify(d.message)}`);
      assert.ok(d.message.length <= 600, `a ${d.message.length}-character message`);
    }
    let hovers = 0;
    for (let line = 0; line < TRACE_LINES.length; line++) {
      for (const f of scanLine(TRACE_LINES[line]).fields) {
        for (const character of [f.keyStart + 1, f.valueStart + 1]) {
          const h = await c.request<Hover | null>('textDocument/hover', c.at(uri, { line, character }));
          if (!h) continue;
          hovers++;
          assertInert((h.contents as MarkupContent).value, `line ${line} ${f.key} @${character}`);
        }
      }
    }
    // cmd_id, job_id, tx_id, event_type and t_cycle hover on every line that has them.
    assert.ok(hovers > 8 * VALUES.length, `only ${hovers} hovers`);
  });

  it('lists at most 50 legs of a transfer that has 10 000', async () => {
    const uri = 'file:///many-legs.trace.jsonl';
    const lines = Array.from({ length: 10_000 }, (_, i) =>
      `{"event_type":"DMA_START","t_cycle":${2 * i},"tx_id":1,"channel":0}\n{"event_type":"DMA_END","t_cycle":${2 * i + 1},"tx_id":1}`);
    await c.open(uri, 'npu-trace', lines.join('\n') + '\n');
    const h = await c.request<Hover | null>('textDocument/hover', c.at(uri, { line: 0, character: lines[0].indexOf('"tx_id":1') + 8 }));
    const md = (h!.contents as MarkupContent).value;
    assert.equal(count(html(md), '<tr>'), 51, md.slice(0, 300));
    assert.match(md, /9,950 more legs not shown/);
    assert.ok(md.length < 10_000, `a ${md.length}-character hover`);
  });
});

describe('exact numbers in messages (built CLI)', () => {
  const digits400 = '9'.repeat(200) + '1'.repeat(200);
  const int64Min = '-9223372036854775808';

  it('quotes a 400-digit integer and int64 min as written, in traces and CMDQ', async () => {
    const { dir, done } = scratch();
    try {
      const trace = join(dir, 'numbers.trace.jsonl');
      writeFileSync(trace, [
        `{"event_type":"IRQ_EMIT","t_cycle":${digits400}}`,
        `{"event_type":"IRQ_EMIT","t_cycle":${int64Min}}`,
      ].join('\n') + '\n');
      const cmdq = join(dir, 'numbers.cmdq.json');
      writeFileSync(cmdq, `{"cmdq": [
{ "opcode": "DMA_LOAD_TILE", "id": 0, "layer_id": null, "deps_before": [], "tensor_role": "ifm", "qbits": 8, "dram_addr": 0, "spm_bank": 0, "spm_offset": ${int64Min}, "num_elements": 64 },
{ "opcode": "END", "id": 1, "layer_id": null, "deps_before": [0, 2] },
{ "opcode": "TE_GEMM_TILE", "id": 2, "layer_id": null, "deps_before": [], "te_id": 0, "ifm_bank": 0, "wgt_bank": 0, "ofm_bank": 0, "m": ${digits400}, "n": 1, "k": 1 }
]}
`);
      const r = await runCliLimited(['check', '--format', 'json', trace, cmdq], 20_000);
      assert.ok(!r.timedOut, 'the CLI hung');
      const all = JSON.parse(r.stdout) as { file: string; diagnostics?: { code: string; message: string }[] }[] | { code: string; message: string }[];
      const messages = JSON.stringify(all);
      assert.ok(!messages.includes('Infinity'), `Infinity in ${messages}`);
      assert.ok(!messages.includes('9223372036854776000'), `a rounded int64 in ${messages}`);
      const text = r.stdout;
      assert.ok(text.includes(`\\"t_cycle\\" must be an integer, got number ${digits400.slice(0, 200)}…, too large to represent`), text);
      assert.ok(text.includes(`\\"t_cycle\\" must be >= 0, got number ${int64Min}`), text);
      assert.ok(text.includes(`\\"spm_offset\\" must be >= 0, got number ${int64Min}`), text);
      assert.ok(text.includes(`\\"m\\" must be an integer, got number ${digits400.slice(0, 200)}…, too large to represent`), text);
    } finally {
      done();
    }
  });
});
