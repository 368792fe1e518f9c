// Requests after an edit of a big trace do not wait on validation: the server answers them
// from the text and the index, and validates in slices between them before it publishes.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { traceLines } from '../gen/genTrace';
import { serverPerSuite } from './lspClient';

const LINES = [...traceLines({ events: 60_000, seed: 12 })];
const URI = 'file:///edits.trace.jsonl';

/** The first line from `from` on that carries a `cmd_id`, and where its value starts. */
function cmdLine(lines: string[], from: number): { line: number; character: number } {
  let line = from;
  while (!lines[line].includes('"cmd_id":')) line++;
  return { line, character: lines[line].indexOf('"cmd_id":') + 10 };
}

describe('trace server: a request after an edit', () => {
  const c = serverPerSuite();
  before(async () => {
    await c.open(URI, 'npu-trace', LINES.join('\n'));
  });

  it('the first edit of a 60k-line trace: a hover queued behind it is answered before that version is published', async () => {
    // The first edit makes the server build its per-id checks (the whole file). VS Code sends
    // requests of its own after an edit (a folding request here) before the user's hover; all
    // three reach the server in one read, so the order of the answers depends only on the server.
    const lines = [...LINES];
    const at = 1000;
    lines.splice(at, 0, lines[at - 1]);
    const probe = cmdLine(lines, 40_000);
    const events: string[] = [];
    c.proc.stdin!.cork();
    const version = c.notifyChange(URI, [{ range: { start: { line: at, character: 0 }, end: { line: at, character: 0 } }, text: `${lines[at]}\n` }]);
    const published = c.diagnostics(URI, version).then((d) => {
      events.push('diagnostics');
      return d;
    });
    const folding = c.request('textDocument/foldingRange', { textDocument: { uri: URI } });
    const hover = c.request<Hover | null>('textDocument/hover', c.at(URI, probe)).then((h) => {
      events.push('hover');
      return h;
    });
    // The writer queues each message behind a promise; uncork once all three are buffered.
    await new Promise((r) => setImmediate(r));
    c.proc.stdin!.uncork();
    const [h, diags] = await Promise.all([hover, published, folding]);
    assert.deepEqual(events, ['hover', 'diagnostics']);
    // The answer is of the edited text: the line the hover names moved down with the insertion.
    assert.equal(h?.range?.start.line, probe.line);
    const cmd = /"cmd_id":(\d+)/.exec(lines[probe.line])![1];
    assert.match((h!.contents as MarkupContent).value, new RegExp(`\\*\\*Command \`${cmd}\`\\*\\*`));
    // The copied line (a VE_END) closes nothing: the checks that ran after the hover see it.
    assert.deepEqual(diags.map((d) => `${d.range.start.line} ${d.code}`), [`${at} trace.unmatched-end`]);
  });
});
