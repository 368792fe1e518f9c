/**
 * The Summary tab of an NNAPI systrace and of an InferScope trace in the built timeline page
 * (headless Chromium): the tables their builders put on the model, drawn as the Summary's tables,
 * with the file's text kept as text; and a model whose tables are malformed is refused.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { splitLines } from '../../../core/common/lines';
import { buildTimeline } from '../../../core/detectFormat';
import type { TimelineModel } from '../../../core/timeline/model';
import { parseHostMessage } from '../../../protocol/timeline';
import { formatCell } from '../../../webview/summaryTables';
import { launchChromium, modelMessage, openTimelinePage, type TimelinePage } from '../../webview/page';

const ROOT = resolve(__dirname, '../../..');
const modelOf = (file: string): TimelineModel => buildTimeline(file, splitLines(readFileSync(join(ROOT, file), 'utf8')))!;

let browser: Browser | undefined;
after(async () => browser?.close());

async function summaryOf(t: { after(fn: () => Promise<void>): void }, model: TimelineModel, fileName: string): Promise<TimelinePage> {
  assert.ok(existsSync(join(ROOT, 'dist/webview/webview.js')), 'dist/webview/webview.js is missing: run `npm run build` first');
  browser ??= await launchChromium();
  const q = await openTimelinePage({ browser, width: 1400, height: 900 });
  t.after(() => q.close());
  await q.post(modelMessage(model, fileName));
  await q.frame();
  await q.post({ type: 'showSummary' });
  return q;
}

function rows(q: TimelinePage, table: string): Promise<string[][]> {
  return q.page.evaluate((table) => Array.from(document.querySelectorAll(`#summaryView section[data-table="${table}"] tbody tr`))
    .map((tr) => Array.from(tr.querySelectorAll('td:not(.bar-cell)')).map((td) => td.textContent ?? '')), table);
}

/** A table's rows as the Summary shows them. */
function shown(model: TimelineModel, id: string): string[][] {
  const t = model.summaryTables!.find((x) => x.id === id)!;
  return t.rows.map((r) => r.map((c, i) => formatCell(c, t.columns[i].kind)));
}

test('an NNAPI systrace\'s Summary: its runs with execution counts and each run\'s layer × phase times', async (t) => {
  const model = modelOf('examples/nnapi-mobilenet.systrace');
  const q = await summaryOf(t, model, 'nnapi-mobilenet.systrace');
  assert.equal(await q.page.isVisible('#summaryView'), true);
  assert.doesNotMatch(await q.page.textContent('#summaryView') ?? '', /The Summary is for/);
  assert.deepEqual(await rows(q, 'runs'), shown(model, 'runs'));
  const self = await rows(q, 'run1-self-times');
  assert.deepEqual(self, shown(model, 'run1-self-times'));
  assert.deepEqual(self.map((r) => r[0]).slice(0, 4), ['Application', 'Runtime', 'IPC', 'Driver']);
  assert.ok((await rows(q, 'run1-times')).length >= 5);
  assert.deepEqual(q.errors, []);
});

test('an InferScope trace\'s Summary: the bottleneck, totals, categories and findings of its analysis', async (t) => {
  const model = modelOf('examples/llm-requests.inferscope.json');
  const q = await summaryOf(t, model, 'llm-requests.inferscope.json');
  for (const id of ['bottleneck', 'totals', 'categories', 'findings']) assert.deepEqual(await rows(q, id), shown(model, id), id);
  assert.equal((await rows(q, 'categories')).length, 5);
  assert.deepEqual(q.errors, []);
});

test('the file\'s text in a table stays text; malformed tables are refused with the model', async (t) => {
  const model = modelOf('examples/nnapi-mobilenet.systrace');
  model.summaryTables = [{ id: 'x', title: '<img src=x onerror=alert(1)>', columns: [{ label: 'run', kind: 'text' }], rows: [['<b>bold</b>']] }];
  const q = await summaryOf(t, model, 'nnapi-mobilenet.systrace');
  assert.deepEqual(await rows(q, 'x'), [['<b>bold</b>']]);
  assert.equal(await q.page.locator('#summaryView img, #summaryView b').count(), 0);
  const bad = (tables: unknown) => parseHostMessage({ ...modelMessage(model), model: { ...model, summaryTables: tables } });
  assert.ok(bad(model.summaryTables));
  assert.equal(bad([{ id: 'x', title: '', columns: [{ label: 'a', kind: 'text' }], rows: [['a', 'b']] }]), undefined, 'a row wider than its columns');
  assert.equal(bad([{ id: 'x', title: '', columns: [{ label: 'a', kind: 'html' }], rows: [] }]), undefined, 'an unknown column kind');
  assert.equal(bad([{ id: 'x', title: '', columns: [{ label: 'a', kind: 'int' }], rows: [[{}]] }]), undefined, 'a cell that is no text, number or null');
  assert.deepEqual(q.errors, []);
});
