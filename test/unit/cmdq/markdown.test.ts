// Values from a CMDQ file rendered by `marked` as VS Code renders hovers and completion docs: an
// opcode, layer_id, tensor_role or bank can hold Markdown, and none of it may become markup.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { marked } from 'marked';
import { completionsAt } from '../../../core/cmdq/completion';
import { CmdqDocument } from '../../../core/cmdq/document';
import { measuredLayerMarkdown } from '../../../core/cmdq/graph/layerTimes';
import { entryHover } from '../../../core/cmdq/summary';
import { entryLenses, layerSymbols } from '../../../core/cmdq/symbols';
import { HOSTILE_VALUES } from '../common/hostileValues';

const GOLDEN = readFileSync(resolve(__dirname, '../../fixtures/cmdq/golden.cmdq.json'), 'utf8');

function html(md: string): string {
  return marked.parse(md, { gfm: true, async: false });
}

/** What a hover may render: our bold label and code spans, nothing else. */
function assertInert(md: string, value: string): void {
  const out = html(md);
  for (const tag of ['<a', '<img', '<h1', '<h2', '<h3', '<table', '<script', '<em', '<del', '<pre', '<hr', '<li', '<blockquote']) {
    assert.ok(!out.includes(tag), `${JSON.stringify(value)} rendered ${tag}: ${out}`);
  }
  assert.equal(out.split('<strong>').length, md.includes('**entry') ? 2 : 1, `${JSON.stringify(value)} added bold text: ${out}`);
}

/** The golden queue with every string a hostile value can take replaced by `v`. */
function poisoned(v: string): string {
  const s = JSON.stringify(v);
  return GOLDEN.replace('"opcode": "TE_GEMM_TILE",   ', `"opcode": ${s}, `)
    .replaceAll('"layer_id": "ffn_0",   ', `"layer_id": ${s}, `)
    .replace('"tensor_role": "wgt"', `"tensor_role": ${s}`)
    .replace('"spm_bank": 1', `"spm_bank": ${s}`)
    .replace('"te_id": 0', `"te_id": ${s}`)
    .replace('"ve_id": 0', `"ve_id": ${s}`);
}

describe('CMDQ values in Markdown', () => {
  for (const v of HOSTILE_VALUES) {
    it(`hover and completion keep ${JSON.stringify(v).slice(0, 40)} as text`, () => {
      const doc = CmdqDocument.parse(poisoned(v));
      assert.equal(doc.parsed.entries.length, 6);
      for (let i = 0; i < 6; i++) assertInert(entryHover(doc, i), v);
      // Completion inside END's deps_before lists every earlier entry with its summary as Markdown.
      const at = doc.parsed.text.lastIndexOf('[4]') + 1;
      const items = completionsAt(doc, at);
      assert.ok(items.length >= 4, `${items.length} completions`);
      for (const c of items) {
        if (c.documentation) assertInert(c.documentation, v);
        assert.ok(!/[\n\r\u2028]/.test(c.detail), `detail ${JSON.stringify(c.detail)}`);
      }
    });
  }

  it('a hostile value is still shown, readable, in the hover', () => {
    const doc = CmdqDocument.parse(poisoned('a|b'));
    const md = entryHover(doc, 1);
    const text = html(md);
    assert.ok(text.includes('a|b'), text);
    assert.ok(!text.includes('<table'), text);
  });

  it('known opcodes and plain layers read as before', () => {
    const md = entryHover(CmdqDocument.parse(GOLDEN), 2);
    assert.match(md, /^\*\*entry 2\*\* · `TE_GEMM_TILE` · layer `ffn_0`$/m);
    assert.match(md, /^TE_GEMM_TILE on TE 0: m×n×k = 64×64×64/m);
  });

  it('outline names and details stay one short line whatever the opcode or layer_id holds', () => {
    const long = `${'#'.repeat(50_000)}\n# forged`;
    const doc = CmdqDocument.parse(poisoned(long));
    for (const l of layerSymbols(doc)) {
      assert.ok(l.layer.length <= 200 && !/[\n\r]/.test(l.layer), `layer ${l.layer.length} chars`);
      for (const e of l.entries) assert.ok(e.name.length <= 220 && !/[\n\r]/.test(e.name), `entry ${e.name.length} chars`);
    }
    for (const l of entryLenses(doc)) assert.ok(l.title.length < 80, l.title);
  });

  it('a diagnostic quoting an opcode stays short', () => {
    const huge = 'X'.repeat(100_000);
    const text = GOLDEN.replace('"opcode": "DMA_LOAD_TILE",     "id": 1', `"opcode": "${huge}", "id": 1`).replace('"deps_before": [],     "tensor_role": "ifm"', '"deps_before": [1], "tensor_role": "ifm"');
    const forward = CmdqDocument.parse(text).allDiagnostics().filter((d) => d.code === 'cmdq.forward-dep');
    assert.equal(forward.length, 1);
    assert.ok(forward[0].message.length < 400, `${forward[0].message.length} chars`);
  });
});

describe('the measured-layer hover section with hostile names (CMDQ layer, trace layer, trace file name)', () => {
  it('renders the same markup as with a plain name: names stay in code spans', () => {
    const stat = { layer_id: '', commands: 2, latency_sum_cycles: 9, span_cycles: 9, p50_cycles: null, p95_cycles: null, max_cycles: null, te_busy_cycles: 3, ve_busy_cycles: 0, engine_busy_cycles: 3, dma_busy_cycles: 1, te_share: null, ve_share: null, dma_share: null, longest: [] };
    const cases = [
      (v: string) => measuredLayerMarkdown(v, new Map([[v, { ...stat, layer_id: v }]]), {}, v),
      (v: string) => measuredLayerMarkdown('x', new Map([[v, { ...stat, layer_id: v }]]), { x: v }, v),
      (v: string) => measuredLayerMarkdown(v, new Map(), { [v]: v }, v),
      (v: string) => measuredLayerMarkdown(null, new Map(), {}, v),
    ];
    // Our own markup: a bold label, an italic note, code spans; a hostile name adds none of it.
    const tags = (out: string) => ['<a', '<img', '<h1', '<h2', '<table', '<script', '<em', '<strong', '<del', '<pre', '<hr', '<li', '<blockquote', '<code'].map((t) => out.split(t).length);
    for (const v of HOSTILE_VALUES) {
      for (const f of cases) assert.deepEqual(tags(html(f(v))), tags(html(f('plain'))), `${JSON.stringify(v)}: ${html(f(v))}`);
    }
  });
});
