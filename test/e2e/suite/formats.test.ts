// Extension-host journeys for the formats added with issues #15-#17 in the real VS Code of the e2e
// harness: InferScope traces (language, planted diagnostics, hover), Chrome traces (detection of a
// PyTorch profile saved as plain .json) and kernel-profiler buffers (the custom editor by default,
// problems published). What needs the screen (timelines, clicks, the save dialog) is in
// test/e2e/harness/formats.ts. Every wait is on an event.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { pytorchTrace } from '../../gen/chromeGen';
import { PLANTED_TRACE_CODES } from '../../gen/inferscopeGen';
import { genKprof, npyBytes, warpSpecProgram } from '../../gen/kprofGen';
import { codeOf, describeDiagnostics, diagnosticsWhere, openEditor, WAIT_MS, workspaceUri } from './helpers';

/** Resolves once a document of `uri` has `languageId` (a detector switches it after the open). */
function languageOf(uri: vscode.Uri, languageId: string): Promise<vscode.TextDocument> {
  const key = uri.toString();
  const now = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key && d.languageId === languageId);
  if (now) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
      reject(new Error(`${uri.path} never got the ${languageId} language; it is ${doc?.languageId ?? 'not open'}`));
    }, WAIT_MS);
    const sub = vscode.workspace.onDidOpenTextDocument((d) => {
      if (d.uri.toString() !== key || d.languageId !== languageId) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(d);
    });
  });
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
}

describe('InferScope traces (#15)', () => {
  it('the faulty example gets the inferscope language and each planted code', async () => {
    const editor = await openEditor(workspaceUri('faulty.inferscope.json'));
    assert.equal(editor.document.languageId, 'inferscope');
    const ds = await diagnosticsWhere(editor.document.uri, 'every planted code', (d) => PLANTED_TRACE_CODES.every((c) => d.some((x) => codeOf(x) === c)));
    // The duplicate id sits on the second "tok_0" (event 9), not on the first.
    const dup = ds.find((d) => codeOf(d) === 'inferscope.duplicate-id')!;
    assert.equal(editor.document.getText(dup.range), '"tok_0"', describeDiagnostics(ds));
    const first = editor.document.getText().indexOf('"tok_0"');
    assert.ok(editor.document.offsetAt(dup.range.start) > first, 'the duplicate is reported on the later id');
  });

  it('the good example has no diagnostics; hover on an event id shows its duration', async () => {
    const editor = await openEditor(workspaceUri('llm-requests.inferscope.json'));
    assert.equal(editor.document.languageId, 'inferscope');
    await diagnosticsWhere(editor.document.uri, 'no diagnostics', (d) => d.length === 0);
    const at = editor.document.positionAt(editor.document.getText().indexOf('"id": "tok_0"') + 8);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, at);
    const text = hoverText(hovers);
    assert.match(text, /`tokenize`/, text);
    assert.match(text, /duration 1500 µs \(1\.5 ms\)/, text);
  });
});

describe('Chrome traces (#17)', () => {
  it('a PyTorch profile saved as plain .json is switched to chrome-trace and has no diagnostics', async () => {
    const uri = workspaceUri('profile-step.json');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(pytorchTrace()));
    const switched = languageOf(uri, 'chrome-trace');
    await openEditor(uri);
    const doc = await switched;
    assert.equal(doc.languageId, 'chrome-trace');
    await diagnosticsWhere(uri, 'no diagnostics', (d) => d.length === 0);
  });
});

describe('Kernel profiler buffers (#16)', () => {
  it('a *.kprof.npy opens in the Kernel Profiler Buffer editor by default', async () => {
    const uri = workspaceUri('warpspec.kprof.npy');
    await vscode.commands.executeCommand('vscode.open', uri);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputCustom, `the active tab is ${tab?.label}: ${JSON.stringify(tab?.input)}`);
    assert.equal(tab.input.viewType, 'npuTrace.kprof');
    assert.equal(tab.input.uri.toString(), uri.toString());
    assert.deepEqual(vscode.languages.getDiagnostics(uri), []);
  });

  it('a buffer that lost records publishes its problems, each naming its code', async () => {
    // Lane 7 (block 1 group 1) never finalizes; 300 slots are 13 too few for 26 records per lane.
    const g = genKprof({ blocks: 2, groups: 6, program: warpSpecProgram, noFinalize: [7], slots: 300 });
    const uri = workspaceUri('lost.kprof.npy');
    await vscode.workspace.fs.writeFile(uri, npyBytes(g.words));
    await vscode.commands.executeCommand('vscode.open', uri);
    const ds = await diagnosticsWhere(uri, 'kprof problems', (d) => d.length > 0);
    assert.deepEqual([...new Set(ds.map(codeOf))].sort(), ['kprof.buffer-full', 'kprof.not-finalized'], describeDiagnostics(ds));
    assert.equal(ds.filter((d) => codeOf(d) === 'kprof.buffer-full').length, 6);
    assert.match(ds.find((d) => codeOf(d) === 'kprof.not-finalized')!.message, /^slot 188 \(block 1, group 1\): /);
  });
});
