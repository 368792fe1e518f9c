import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateInstalled, diagnosticsWhere, linesMatching, openEditor, valuePosition, workspaceUri } from './helpers';

const GOOD = 'llm-layer.trace.jsonl';

function hoverText(hovers: vscode.Hover[]): string {
  // Values from the file are Markdown-escaped (`QKV\_PROJ`); compare them as they render.
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n').replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

function locationOf(l: vscode.Location | vscode.LocationLink): { uri: vscode.Uri; range: vscode.Range } {
  return 'targetUri' in l ? { uri: l.targetUri, range: l.targetSelectionRange ?? l.targetRange } : l;
}

describe('Journey 3: hover, go to definition, references and outline', () => {
  let editor: vscode.TextEditor;
  let doc: vscode.TextDocument;
  let enqueueLine: number;
  let jobLine: number;
  let cmdLines: number[];
  // Command 2 is the QKV projection of layer 0: a MATMUL of 24 TE jobs of 64 KiB each.
  const CMD = 2;
  const ofCmd = new RegExp(`"cmd_id":${CMD}[,}]`);

  before(async () => {
    await activateInstalled();
    const uri = workspaceUri(GOOD);
    editor = await openEditor(uri);
    doc = editor.document;
    await diagnosticsWhere(uri, 'a clean document', (d) => d.length === 0);
    enqueueLine = linesMatching(doc, new RegExp(`"event_type":"CMD_ENQUEUE".*${ofCmd.source}`))[0];
    jobLine = linesMatching(doc, new RegExp(`"event_type":"JOB_ISSUE".*${ofCmd.source}`))[3];
    cmdLines = linesMatching(doc, ofCmd);
    assert.ok(enqueueLine > 0 && jobLine > enqueueLine && cmdLines.length > 100, 'the example has the expected command 2');
  });

  it('hover on a cmd_id shows the command summary', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, valuePosition(doc, jobLine, 'cmd_id'));
    const text = hoverText(hovers).replace(/(\d),(?=\d{3})/g, '$1');
    const get = (type: string, key: string) => {
      const l = linesMatching(doc, new RegExp(`"event_type":"${type}".*${ofCmd.source}`))[0];
      return String((JSON.parse(doc.lineAt(l).text) as Record<string, unknown>)[key]);
    };
    for (const want of ['MATMUL', 'QKV_PROJ', 'tinyllama_1b', get('CMD_ENQUEUE', 't_cycle'), get('CMD_START', 't_cycle'), get('CMD_END', 't_cycle')]) {
      assert.ok(text.includes(want), `hover lacks ${want}:\n${text}`);
    }
    assert.match(text, /jobs\W+24\b/, text);
    assert.match(text, /1572864|1536 KiB|1\.5 MiB/, `DMA bytes (24 × 65536) not in the hover:\n${text}`);
  });

  it('"Go to Definition" on a cmd_id moves the cursor to its CMD_ENQUEUE line', async () => {
    const pos = valuePosition(doc, jobLine, 'cmd_id');
    const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', doc.uri, pos);
    assert.equal(defs.length, 1, JSON.stringify(defs));
    const def = locationOf(defs[0]);
    assert.equal(def.uri.toString(), doc.uri.toString());
    assert.equal(def.range.start.line, enqueueLine);

    editor = await openEditor(doc.uri);
    editor.selection = new vscode.Selection(pos, pos);
    await vscode.commands.executeCommand('editor.action.revealDefinition');
    const active = vscode.window.activeTextEditor;
    assert.equal(active?.document.uri.toString(), doc.uri.toString());
    assert.equal(active?.selection.active.line, enqueueLine, 'the cursor is on the CMD_ENQUEUE line');
  });

  it('"Go to Definition" on the tx_id of a DMA_END goes to the DMA_START it closes', async () => {
    const end = linesMatching(doc, /"event_type":"DMA_END"/)[7];
    const tx = (JSON.parse(doc.lineAt(end).text) as { tx_id: number }).tx_id;
    const start = linesMatching(doc, new RegExp(`"event_type":"DMA_START".*"tx_id":${tx},`))[0];
    const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', doc.uri, valuePosition(doc, end, 'tx_id'));
    assert.deepEqual(defs.map((d) => locationOf(d).range.start.line), [start]);
  });

  it('the outline lists every enqueued command with its type, phase and layer', async () => {
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', doc.uri);
    assert.equal(symbols.length, linesMatching(doc, /"event_type":"CMD_ENQUEUE"/).length);
    const qkv = symbols.find((s) => s.range.start.line === enqueueLine);
    assert.ok(qkv, 'no outline entry on the CMD_ENQUEUE of command 2');
    assert.match(qkv.name, /\b2\b.*MATMUL/);
    assert.match(qkv.detail, /QKV_PROJ/);
    assert.equal(qkv.range.end.line, cmdLines[cmdLines.length - 1]);
  });

  it('"Find All References" on a cmd_id lists every line of that command', async () => {
    const refs = await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', doc.uri, valuePosition(doc, jobLine, 'cmd_id'));
    const lines = [...new Set(refs.map((r) => r.range.start.line))].sort((a, b) => a - b);
    assert.deepEqual(lines, cmdLines);
    assert.ok(refs.every((r) => r.uri.toString() === doc.uri.toString()));
  });
});
