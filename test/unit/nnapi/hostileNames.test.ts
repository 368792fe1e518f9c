// Names from a systrace (task, function, mark, tag codes) reach the hover's Markdown and the
// outline: rendered by `marked` as VS Code's hovers are, they must stay text; and deep or huge
// call trees must give a bounded hover and outline.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { marked } from 'marked';
import type { DocumentSymbol } from 'vscode-languageserver';
import { NnapiDocument } from '../../../core/nnapi/document';
import { nnapiHover, PATH_ENDS } from '../../../server/nnapi/hover';
import { MAX_FOLDS, MAX_OUTLINE_DEPTH, MAX_SYMBOLS, nnapiFolding, nnapiSymbols } from '../../../server/nnapi/outline';
import { HOSTILE_VALUES } from '../common/hostileValues';
import { HEADER, row } from './traceBuilder';

const html = (md: string) => marked.parse(md, { gfm: true, async: false });

/** A trace line cannot hold a line break: the value with its breaks as spaces (the escapes are tested on the raw values). */
const oneLine = (v: string) => v.replace(/[\r\n\u2028\u2029]/g, ' ');

function hoverHtml(lines: string[], line: number): string {
  const doc = NnapiDocument.fromLines(lines.length, (i) => lines[i]);
  const h = nnapiHover(doc, { line, character: 3 });
  assert.ok(h, `a hover on line ${line}`);
  return html((h.contents as { value: string }).value);
}

/** The hover's own markup only: one bold title, one table of 5 rows, and nothing a value could add. */
function assertInert(out: string, what: string): void {
  const count = (tag: string) => out.split(tag).length - 1;
  for (const tag of ['<a', '<img', '<h1', '<h2', '<h3', '<em', '<del', '<script', '<pre', '<hr']) {
    assert.equal(count(tag), 0, `${what} rendered ${tag}: ${out}`);
  }
  assert.equal(count('<strong>'), 1, `${what}: ${out}`);
  assert.equal(count('<table>'), 1, `${what}: ${out}`);
  assert.equal(count('<tr>'), 6, `${what}: ${out}`);
  assert.equal(count('<td>'), 10, `${what}: ${out}`);
}

describe('nnapi hover with hostile names', () => {
  const at = HEADER.length + 1;
  const nested = (inner: string, task = 'NeuralNetworks') => [...HEADER, row({ t: 0, pid: 1, task, mark: 'B|1|[NN_LR_PC]outer' }),
    row({ t: 1, pid: 1, task, mark: inner }), row({ t: 2, pid: 1, task, mark: 'E' }), row({ t: 3, pid: 1, task, mark: 'E' })];

  for (const raw of HOSTILE_VALUES) {
    const v = oneLine(raw);
    it(`keeps ${JSON.stringify(raw).slice(0, 40)} as text in the function, the mark and the task`, () => {
      // As the function name (title and call path), as the whole mark (a name-less scope) and in the tag's layer.
      for (const inner of [`B|1|[NN_LR_PC]${v}`, `B|1|[NN_LR_PC]|${v}`]) {
        assertInert(hoverHtml(nested(inner), at), inner);
      }
      const tag = v.replaceAll(']', ')');
      assertInert(hoverHtml(nested(`B|1|[NN_${tag}_PC]f`), at), tag);
      // A task name is at most 16 characters of the row.
      const task = v.slice(0, 16).trim() || 'x';
      assertInert(hoverHtml(nested('B|1|[NN_LR_PC]inner', task), at), task);
    });
  }

  it('cuts a 20 000-deep call path to its ends and "… N more"', () => {
    const n = 20_000;
    const lines = [...HEADER];
    for (let i = 0; i < n; i++) lines.push(row({ t: i, pid: 1, mark: `B|1|[NN_LR_PC]f${i}` }));
    for (let i = 0; i < n; i++) lines.push(row({ t: n + i, pid: 1, mark: 'E' }));
    const doc = NnapiDocument.fromLines(lines.length, (i) => lines[i]);
    const md = (nnapiHover(doc, { line: HEADER.length + n - 1, character: 0 })!.contents as { value: string }).value;
    assert.ok(md.length < 4096, `${md.length} characters`);
    assert.match(md, new RegExp(`- … ${n - 2 * PATH_ENDS} more`));
    assert.match(md, /- f0 `LR_PC`/);
    assert.match(md, new RegExp(`- f${n - 1} \`LR_PC\``));
    assert.equal(html(md).split('<li>').length - 1, 2 * PATH_ENDS + 1);
  });
});

function depthOf(syms: readonly DocumentSymbol[]): number {
  let max = 0;
  const stack: [DocumentSymbol, number][] = syms.map((s) => [s, 1]);
  while (stack.length) {
    const [s, d] = stack.pop()!;
    max = Math.max(max, d);
    for (const c of s.children ?? []) stack.push([c, d + 1]);
  }
  return max;
}

describe('nnapi outline bounds', () => {
  it('nests at most MAX_OUTLINE_DEPTH levels and says which scopes it listed flat', () => {
    const n = 100;
    const lines = [...HEADER];
    for (let i = 0; i < n; i++) lines.push(row({ t: i, pid: 1, mark: `B|1|[NN_LR_PC]f${i}` }));
    for (let i = 0; i < n; i++) lines.push(row({ t: n + i, pid: 1, mark: 'E' }));
    const syms = nnapiSymbols(NnapiDocument.parse(lines.join('\n')));
    assert.equal(depthOf(syms), MAX_OUTLINE_DEPTH + 1);
    // Every scope is still listed once, in trace order; the deepest level holds the rest, flat.
    const names: string[] = [];
    const walk = (ss: readonly DocumentSymbol[]) => { for (const s of ss) { names.push(s.name); walk(s.children ?? []); } };
    walk(syms[0].children!);
    assert.deepEqual(names, Array.from({ length: n }, (_, i) => `f${i}`));
    const all: DocumentSymbol[] = [];
    const collect = (ss: readonly DocumentSymbol[]) => { for (const s of ss) { all.push(s); collect(s.children ?? []); } };
    collect(syms[0].children!);
    assert.ok(!all[MAX_OUTLINE_DEPTH - 1].detail!.includes('flat'));
    assert.match(all[MAX_OUTLINE_DEPTH].detail!, new RegExp(`nested ${MAX_OUTLINE_DEPTH + 1} deep, listed flat`));
    assert.match(all[n - 1].detail!, new RegExp(`nested ${n} deep, listed flat`));
  });

  it('lists at most MAX_SYMBOLS entries and counts the rest', () => {
    const n = MAX_SYMBOLS + 500;
    const lines = [...HEADER];
    for (let i = 0; i < n; i++) lines.push(row({ t: 2 * i, pid: 1, mark: `B|1|[NN_LR_PC]f${i}` }), row({ t: 2 * i + 1, pid: 1, mark: 'E' }));
    const syms = nnapiSymbols(NnapiDocument.parse(lines.join('\n')));
    assert.equal(syms.length, 2);
    assert.equal(syms[0].children!.length, MAX_SYMBOLS - 1);
    assert.equal(syms[1].name, `… ${n - MAX_SYMBOLS + 1} more scopes not listed`);
    assert.equal(syms[1].range.start.line, HEADER.length + 2 * (MAX_SYMBOLS - 1));
  });

  it('folds the first MAX_FOLDS scopes in line order, on interleaved threads too', () => {
    const n = MAX_FOLDS + 500;
    const lines = [...HEADER];
    for (let i = 0; i < n; i++) lines.push(row({ t: 2 * i, pid: 1 + (i % 2), mark: `B|${1 + (i % 2)}|[NN_LR_PC]f${i}` }), row({ t: 2 * i + 1, pid: 1 + (i % 2), mark: 'E' }));
    const folds = nnapiFolding(NnapiDocument.parse(lines.join('\n')));
    assert.equal(folds.length, MAX_FOLDS);
    assert.deepEqual(folds.slice(0, 3).map((f) => [f.startLine, f.endLine]), [[4, 5], [6, 7], [8, 9]]);
    assert.equal(folds[MAX_FOLDS - 1].startLine, HEADER.length + 2 * (MAX_FOLDS - 1));
  });

  it('cuts a megabyte-long function name', () => {
    const lines = [...HEADER, row({ t: 0, pid: 1, mark: `B|1|[NN_LR_PC]${'x'.repeat(1 << 20)}` }), row({ t: 1, pid: 1, mark: 'E' })];
    const [thread] = nnapiSymbols(NnapiDocument.parse(lines.join('\n')));
    assert.ok(thread.children![0].name.length < 300);
  });
});

describe('nnapi messages quoting the file', () => {
  it('stay short and free of control characters, whatever the names', () => {
    const long = `${'\u001b[2K'.repeat(50_000)}`;
    const lines = [...HEADER, row({ t: 0, pid: 1, mark: `B|1|[NN_LA_PO]${long}` }), row({ t: 1, pid: 1, mark: `B|1|[NN_${long}_PC]x` }),
      row({ t: 2, pid: 1, mark: `B|1|[NN_LR_P${long}]y` }), row({ t: 3, pid: 1, mark: 'E' }), row({ t: 4, pid: 1, mark: 'E' }),
      row({ t: 5, pid: 1, mark: `B|1|[NN_LR_PC]f${long}` }), row({ t: 6, pid: 1, mark: `B|1|[NN_LA_PC]g${long}` })];
    const ds = NnapiDocument.parse(lines.join('\n')).allDiagnostics();
    assert.deepEqual([...new Set(ds.map((d) => d.code))].sort(), ['nnapi.layer-nesting', 'nnapi.unclosed-begin', 'nnapi.unknown-tag']);
    for (const d of ds) {
      assert.ok(d.message.length < 2_000, `${d.code}: ${d.message.length} characters`);
      // eslint-disable-next-line no-control-regex -- looking for control characters is the point
      assert.ok(!/[\u0000-\u001f\u007f-\u009f]/.test(d.message), d.message.slice(0, 200));
    }
  });
});
