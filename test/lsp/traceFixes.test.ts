import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CodeAction, TextEdit } from 'vscode-languageserver-protocol';
import { serverPerSuite } from './lspClient';

const LANG = 'npu-trace';
const META = '{"event_type":"TRACE_META","version":"1.0","clock_ghz":1.0}';

describe('npu-trace quick fixes for "did you mean" over stdio', () => {
  const c = serverPerSuite();

  /** Opens `text`, takes the fix of its one diagnostic with `code`, applies it and gives the diagnostics after. */
  async function fixOnce(uri: string, text: string, code: string, want: string): Promise<{ title: string; after: string[] }> {
    const diags = await c.open(uri, LANG, text);
    const d = diags.find((x) => x.code === code);
    assert.ok(d, `${code} in ${JSON.stringify(diags.map((x) => x.code))}`);
    const actions = await c.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } });
    assert.equal(actions.length, 1, JSON.stringify(actions));
    const [fix] = actions;
    assert.equal(fix.isPreferred, true);
    const edits = fix.edit!.changes![uri] as TextEdit[];
    assert.equal(edits.length, 1);
    assert.deepEqual(edits[0].range, d.range);
    assert.equal(edits[0].newText, want);
    const after = await c.change(uri, [{ range: edits[0].range, text: edits[0].newText }]);
    return { title: fix.title, after: after.map((x) => x.code as string) };
  }

  it('an unknown event_type: the fix writes the event type the message names, and the line checks clean', async () => {
    const text = `${META}\n{"event_type":"CMD_STRT","t_cycle":5,"cmd_id":1}\n`;
    const r = await fixOnce('file:///typo.trace.jsonl', text, 'trace.unknown-event-type', '"CMD_START"');
    assert.equal(r.title, 'Replace with "CMD_START"');
    assert.ok(!r.after.includes('trace.unknown-event-type'), r.after.join());
  });

  it('an enum value one letter off: the fix writes the allowed value', async () => {
    const text = `${META}\n{"event_type":"CMD_START","t_cycle":5,"cmd_id":1}\n{"event_type":"CMD_END","t_cycle":9,"cmd_id":1,"status":"OKK"}\n`;
    const r = await fixOnce('file:///enum.trace.jsonl', text, 'trace.invalid-value', '"OK"');
    assert.deepEqual(r.after, []);
  });

  it('no fix where the message names nothing (a value far from every allowed one)', async () => {
    const uri = 'file:///far.trace.jsonl';
    const diags = await c.open(uri, LANG, `${META}\n{"event_type":"QQQQQQQQQQQQQQQQ","t_cycle":5}\n`);
    const d = diags.find((x) => x.code === 'trace.unknown-event-type')!;
    assert.doesNotMatch(d.message, /did you mean/);
    const actions = await c.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } });
    assert.deepEqual(actions, []);
  });
});
