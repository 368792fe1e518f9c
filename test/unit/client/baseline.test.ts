/**
 * The pinned baselines' host side (client/diff/baseline.ts) with a stand-in for the `vscode` module
 * (no VS Code here): one baseline per format kept in the workspace's state, and the Summary's
 * comparison with it made by the built worker (dist/compareWorker.js, `npm run build`), kept while
 * neither file changes, made again when the baseline changed on disk, and a message (never a throw)
 * when the baseline is gone, of another format, or the comparison is cancelled.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { EventEmitter, standInForVscode } from '../vscodeStandIn';
import { FORMATS } from '../../../core/formats';
import { parseHostMessage } from '../../../protocol/timeline';
import { PLANTED_PAIR, traceText } from '../../gen/genTrace';

const ROOT = resolve(__dirname, '../../..');

interface FakeUri { scheme: string; path: string; fsPath: string; toString(): string }
const uri = (path: string): FakeUri => ({ scheme: 'file', path, fsPath: path, toString: () => `file://${path}` });
let progressShown = 0;
const contexts = new Map<string, unknown>();
const vscodeMock = {
  EventEmitter,
  ProgressLocation: { Notification: 15 },
  Uri: class {
    static parse = (s: string) => uri(s.replace(/^file:\/\//, ''));
    static joinPath = (u: FakeUri, ...parts: string[]) => uri([u.path, ...parts].join('/'));
  },
  window: {
    // Each comparison made (not answered from the cache) shows its notification once.
    withProgress: async <T>(_o: unknown, f: (p: { report(): void }, t: { onCancellationRequested(l: () => void): void }) => Promise<T>) => {
      progressShown++;
      return f({ report() {} }, { onCancellationRequested() {} });
    },
  },
  workspace: { asRelativePath: (u: FakeUri) => u.path.split('/').pop() },
  commands: { executeCommand: async (id: string, key: string, value: unknown) => { if (id === 'setContext') contexts.set(key, value); } },
};
standInForVscode(vscodeMock);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Baselines } = require('../../../client/diff/baseline') as typeof import('../../../client/diff/baseline');

class Memento {
  private readonly m = new Map<string, unknown>();
  get<T>(k: string): T | undefined { return this.m.get(k) as T | undefined; }
  async update(k: string, v: unknown) { this.m.set(k, JSON.parse(JSON.stringify(v))); }
  keys() { return [...this.m.keys()]; }
}

const token = (cancelled = false) => {
  const e = new EventEmitter<void>();
  return { isCancellationRequested: cancelled, onCancellationRequested: e.event, cancel: () => e.fire() };
};

describe('pinned baselines (host side)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baselines-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const base = join(dir, 'base.trace.jsonl');
  const slower = join(dir, 'slower.trace.jsonl');
  writeFileSync(base, traceText(PLANTED_PAIR.base));
  writeFileSync(slower, traceText(PLANTED_PAIR.slower));
  const npu = FORMATS.find((f) => f.id === 'npu-trace')!;
  const state = new Memento();
  const b = new Baselines(state as never, join(ROOT, 'dist/compareWorker.js'));

  it('one per format, in the workspace state, told to every panel', async () => {
    let changes = 0;
    b.onDidChange(() => changes++);
    assert.equal(b.pinned(uri(slower) as never)?.name, '', 'none pinned yet');
    await b.pin(uri(slower) as never, npu);
    await b.pin(uri(base) as never, npu);
    assert.equal(changes, 2);
    assert.deepEqual(state.get('npuTrace.baselines'), { 'npu-trace': `file://${base}` });
    assert.equal(contexts.get('npuTrace.baselinePinned'), true);
    assert.deepEqual(b.pinned(uri(slower) as never), { type: 'baselinePinned', name: 'base.trace.jsonl', self: false });
    assert.deepEqual(b.pinned(uri(base) as never), { type: 'baselinePinned', name: 'base.trace.jsonl', self: true });
    // A new Baselines over the same state (a window reload) has the same pin.
    assert.equal(new Baselines(state as never, '').get('npu-trace')?.fsPath, base);
  });

  it('the Summary\'s comparison: the planted phase first; kept while neither file changes; made again when the baseline changed', async () => {
    progressShown = 0;
    const first = await b.compare(uri(slower) as never, token() as never);
    assert.ok(parseHostMessage(first), 'a valid message');
    assert.equal(first.message, '');
    assert.equal(`${first.diff!.rows[0].kind}:${first.diff!.rows[0].key}`, 'phase:MLP');
    assert.equal(first.diff!.rows[0].reported, true);
    assert.deepEqual([first.diff!.a.file, first.diff!.b.file], ['base.trace.jsonl', 'slower.trace.jsonl']);
    assert.deepEqual(first.attrs, { phase: 'phase', layer: 'layer_id' });
    assert.equal(progressShown, 1);
    const again = await b.compare(uri(slower) as never, token() as never);
    assert.deepEqual(again, first);
    assert.equal(progressShown, 1, 'answered from the cache');
    const t = new Date(Date.now() + 5000);
    utimesSync(base, t, t);
    await b.compare(uri(slower) as never, token() as never);
    assert.equal(progressShown, 2, 'the baseline changed on disk: compared again');
    const self = await b.compare(uri(base) as never, token() as never);
    assert.equal(self.diff, null);
    assert.match(self.message, /This file is the pinned baseline/);
  });

  it('a cancelled comparison, a baseline of another format or gone: said, never thrown', async () => {
    const t = new Date(Date.now() + 10_000);
    utimesSync(base, t, t);
    const tk = token();
    const run = b.compare(uri(slower) as never, tk as never);
    tk.isCancellationRequested = true;
    tk.cancel();
    assert.match((await run).message, /cancelled: open the Summary again to retry/);

    // A pin whose file is (now) detected as another format: a Chrome trace where an NPU trace was.
    const chrome = join(dir, 'run.pt.trace.json');
    writeFileSync(chrome, '{"traceEvents": []}\n');
    await state.update('npuTrace.baselines', { 'npu-trace': `file://${chrome}` });
    assert.match((await b.compare(uri(slower) as never, token() as never)).message, /^The pinned baseline run\.pt\.trace\.json is now read as Chrome Trace JSON, not NPU trace: pin another run/);
    await state.update('npuTrace.baselines', { 'npu-trace': `file://${base}` });
    rmSync(base);
    const gone = await b.compare(uri(slower) as never, token() as never);
    assert.equal(gone.diff, null);
    assert.match(gone.message, /^The pinned baseline base\.trace\.jsonl no longer exists: pin another run \(NPU Trace: Pin as Baseline\) or unpin it \(NPU Trace: Clear Baseline\)\.$/);
    await b.clear('npu-trace');
    assert.deepEqual(state.get('npuTrace.baselines'), {});
    assert.equal(contexts.get('npuTrace.baselinePinned'), false);
    assert.match((await b.compare(uri(slower) as never, token() as never)).message, /^No baseline is pinned for NPU trace files/);
  });
});
