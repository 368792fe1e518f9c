import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import type { Location } from 'vscode-languageserver-protocol';
import { pytorchTrace } from '../gen/chromeGen';
import { serverPerSuite } from './lspClient';

const FAULTY = readFileSync(resolve(__dirname, '../fixtures/chrome/faulty.trace.json'), 'utf8');
const LANG = 'chrome-trace';

describe('chrome-trace language server over stdio', () => {
  const c = serverPerSuite();

  it('publishes nothing for a PyTorch-profiler-shaped trace', async () => {
    assert.deepEqual(await c.open('file:///run.pt.trace.json', LANG, pytorchTrace()), []);
  });

  it('publishes every planted problem on its token, the truncation as information', async () => {
    const diags = await c.open('file:///faulty.trace.json', LANG, FAULTY);
    const lines = FAULTY.split('\n');
    assert.equal(diags.length, 17);
    const unknown = diags.find((d) => d.code === 'chrome.unknown-ph')!;
    assert.equal(lines[unknown.range.start.line].slice(unknown.range.start.character, unknown.range.end.character), '"Q"');
    const truncated = diags.find((d) => d.code === 'chrome.truncated')!;
    assert.equal(truncated.severity, 3);
  });

  it('goes from a flow end (f) to its start (s), and lists the flow from its start', async () => {
    const uri = 'file:///flows.pt.trace.json';
    const text = pytorchTrace(1);
    await c.open(uri, LANG, text);
    const lines = text.split('\n');
    const sLine = lines.findIndex((l) => l.includes('"ph":"s","id":2,'));
    const fLine = lines.findIndex((l) => l.includes('"ph":"f","id":2,'));
    assert.ok(sLine > 0 && fLine > sLine);
    const def = await c.request<Location | null>('textDocument/definition', { textDocument: { uri }, position: { line: fLine, character: 10 } });
    assert.deepEqual(def?.range.start, { line: sLine, character: 2 });
    const refs = await c.request<Location[] | null>('textDocument/references', { textDocument: { uri }, position: { line: sLine, character: 5 }, context: { includeDeclaration: true } });
    assert.deepEqual(refs?.map((r) => r.range.start.line), [sLine, fLine]);
    const none = await c.request<Location | null>('textDocument/definition', { textDocument: { uri }, position: { line: fLine - 1, character: 10 } });
    assert.equal(none, null);
  });

  it('re-checks after an edit: closing the array and fixing the ph', async () => {
    const uri = 'file:///edit.trace.json';
    const text = '[{"ph":"Z","pid":1,"tid":1,"ts":1}';
    assert.deepEqual((await c.open(uri, LANG, text)).map((d) => d.code).sort(), ['chrome.truncated', 'chrome.unknown-ph']);
    const fixed = await c.change(uri, [{ range: { start: { line: 0, character: 8 }, end: { line: 0, character: 9 } }, text: 'i' }, { range: { start: { line: 0, character: 34 }, end: { line: 0, character: 34 } }, text: ']' }]);
    assert.deepEqual(fixed, []);
  });
});
