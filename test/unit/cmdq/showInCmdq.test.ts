/**
 * The timeline's *Show in CMDQ* (client/cmdq/traceJoin.ts) with a stand-in for the `vscode` module:
 * the entry is selected in the editor group that already holds the CMDQ, not in the active group
 * (the timeline's), where a second copy of the CMDQ would cover the timeline (seen in the real VS
 * Code by test/e2e/harness/glue.ts).
 */
import assert from 'node:assert/strict';
import Module from 'node:module';
import { describe, it } from 'node:test';

interface FakeUri { path: string; toString(): string }
const uri = (s: string): FakeUri => ({ path: s.replace(/^file:\/\//, ''), toString: () => s });
class TabInputText { constructor(readonly uri: FakeUri) {} }
const commands = new Map<string, (...a: unknown[]) => Promise<unknown>>();
const shown: { doc: unknown; options: { viewColumn?: number; selection?: unknown } }[] = [];
let groups: { viewColumn: number; tabs: { input: unknown }[] }[] = [];
const noop = () => ({ dispose() {} });
const vscodeMock = {
  EventEmitter: class { event = noop; fire() {} dispose() {} },
  Range: class { constructor(readonly a: number, readonly b: number, readonly c: number, readonly d: number) {} },
  TextEditorRevealType: { InCenterIfOutsideViewport: 2 },
  ViewColumn: { One: 1, Beside: -2 },
  TabInputText,
  Uri: { parse: (s: string) => uri(s) },
  workspace: {
    getConfiguration: () => ({ get: () => undefined }),
    onDidChangeConfiguration: noop, onDidOpenTextDocument: noop, onDidCloseTextDocument: noop,
    openTextDocument: async (u: FakeUri) => ({ uri: u }),
  },
  window: {
    get tabGroups() { return { all: groups }; },
    showTextDocument: async (doc: unknown, options: { viewColumn?: number }) => { shown.push({ doc, options }); return { revealRange() {} }; },
    showWarningMessage: async () => undefined,
  },
  commands: { registerCommand: (id: string, f: (...a: unknown[]) => Promise<unknown>) => { commands.set(id, f); return { dispose() {} }; } },
};
const M = Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown };
const load = M._load;
M._load = (req: string, ...rest: unknown[]) => (req === 'vscode' ? vscodeMock : load(req, ...rest));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { registerCmdqTraceJoin, SHOW_IN_CMDQ } = require('../../../client/cmdq/traceJoin') as typeof import('../../../client/cmdq/traceJoin');

const CMDQ = 'file:///w/joined.cmdq.json';
const client = {
  sendNotification: async () => undefined,
  sendRequest: async () => ({ ok: true, uri: CMDQ, range: { start: { line: 3, character: 44 }, end: { line: 3, character: 45 } } }),
};
registerCmdqTraceJoin({ subscriptions: [] } as never, client as never);

describe('Show in CMDQ', () => {
  it('selects the entry in the group holding the CMDQ, not over the timeline', async () => {
    groups = [
      { viewColumn: 1, tabs: [{ input: new TabInputText(uri('file:///w/llm-layer.trace.jsonl')) }, { input: new TabInputText(uri(CMDQ)) }] },
      { viewColumn: 2, tabs: [{ input: { viewType: 'npuTrace.timeline' } }] },
    ];
    shown.length = 0;
    await commands.get(SHOW_IN_CMDQ)!('1');
    assert.equal(shown.length, 1);
    assert.equal(shown[0].options.viewColumn, 1);
    assert.deepEqual(shown[0].options.selection, new vscodeMock.Range(3, 44, 3, 45));
  });

  it('a CMDQ open in no tab opens beside the timeline', async () => {
    groups = [{ viewColumn: 1, tabs: [{ input: { viewType: 'npuTrace.timeline' } }] }];
    shown.length = 0;
    await commands.get(SHOW_IN_CMDQ)!('1');
    assert.equal(shown[0].options.viewColumn, vscodeMock.ViewColumn.Beside);
  });
});
