// The timeline of imported Chrome traces, and the round trip export → import over the timeline model.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChromeTraceExporter } from '../../../core/export/chromeTrace';
import { buildTimeline } from '../../../core/detectFormat';
import { MAX_COUNTERS, MAX_THREADS } from '../../../core/chrome/timeline';
import { FLAG, type TimelineModel } from '../../../core/timeline/model';
import { pytorchTrace } from '../../gen/chromeGen';

const ROOT = join(__dirname, '..', '..', '..');

function rows(m: TimelineModel): string[] {
  return m.tracks.map((t) => `${'  '.repeat(depth(m, t.parent))}${t.kind} ${t.name}${t.kind === 'slices' ? ` (${t.rowCount} rows)` : ''}`);
}
function depth(m: TimelineModel, p: number): number {
  return p < 0 ? 0 : 1 + depth(m, m.tracks[p].parent);
}

/** Every item as "name start end kind" in µs, instants marked, sorted. */
function items(m: TimelineModel, scale: number): string[] {
  const it = m.items;
  const out: string[] = [];
  for (let i = 0; i < it.start.length; i++) {
    const inst = it.flags[i] & FLAG.instant;
    out.push(`${m.strings[it.name[i]]} ${(it.start[i] * scale).toFixed(3)} ${inst ? 'instant' : (it.end[i] * scale).toFixed(3)}`);
  }
  return out.sort();
}

/** Every item as [name, start, end (NaN for an instant)] in µs, sorted by name, start, end. */
function tuples(m: TimelineModel, scale: number): [string, number, number][] {
  const it = m.items;
  const out: [string, number, number][] = [];
  for (let i = 0; i < it.start.length; i++) out.push([m.strings[it.name[i]], it.start[i] * scale, it.flags[i] & FLAG.instant ? NaN : it.end[i] * scale]);
  return out.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1] || x[2] - y[2]));
}

describe('Chrome trace timeline', () => {
  const m = buildTimeline('run.pt.trace.json', pytorchTrace().split('\n'))!;

  it('groups threads by process with the names and order of the M events at the end of the file', () => {
    assert.deepEqual(rows(m), [
      'group python3', '  slices thread 1234 (python3) (3 rows)', '  slices thread 1240 (pt_autograd_0) (3 rows)',
      'group GPU 0', '  slices stream 7 (1 rows)', '  slices stream 8 (1 rows)', '  counter GPU Memory',
    ]);
    assert.equal(m.format, 'chrome-trace');
    assert.equal(m.unit, 'µs');
  });

  it('titles a process with its labels, and with its pid where two share a name, as Kineto\'s M events say', () => {
    const m = (o: object) => JSON.stringify({ ph: 'M', ...o });
    const text = ['{"traceEvents": [',
      [m({ name: 'process_name', pid: 41873, tid: 0, args: { name: 'python3' } }), m({ name: 'process_labels', pid: 41873, tid: 0, args: { labels: 'CPU' } }),
        m({ name: 'process_name', pid: 41990, tid: 0, args: { name: 'python3' } }),
        m({ name: 'process_name', pid: 0, tid: 0, args: { name: 'GPU 0' } }), m({ name: 'process_labels', pid: 0, tid: 0, args: { labels: 'NVIDIA H200' } }),
        ...[41873, 41990, 0].map((pid) => JSON.stringify({ ph: 'X', name: 'op', pid, tid: 1, ts: 10, dur: 5 }))].join(',\n'),
      ']}'];
    const titles = buildTimeline('t.json', text)!.tracks.filter((t) => t.kind === 'group').map((t) => t.name);
    assert.deepEqual(titles.sort(), ['GPU 0: NVIDIA H200', 'python3 (pid 41873): CPU', 'python3 (pid 41990)']);
  });

  it('draws slices at their µs times with the category as the colour attribute; M events set no time', () => {
    assert.equal(m.t0, 1_700_000_000_000.5);
    const i = m.strings.indexOf('aten::linear');
    const k = m.items.name.indexOf(i);
    assert.equal(m.items.end[k] - m.items.start[k], 80);
    assert.equal(m.strings[m.ctxAttrs[m.items.ctx[k] * 5]], 'cpu_op');
    assert.equal(m.undrawable, 0);
  });

  it('draws counters from C values, each holding until the next sample', () => {
    const c = m.counters[0];
    assert.equal(c.name, 'GPU Memory');
    assert.equal(c.values[0], 1024);
    assert.equal(c.values[c.values.length - 1], 1024);
  });

  it('keeps B/E pairs per thread across string and integer ids, and async b/e on the Async row', () => {
    const t = buildTimeline('x.trace.json', [
      '[{"ph":"B","name":"a","pid":7,"tid":"1","ts":1},{"ph":"E","pid":"7","tid":1,"ts":5},',
      '{"ph":"b","name":"req","cat":"n","id":3,"pid":7,"ts":2},{"ph":"e","name":"req","cat":"n","id":3,"pid":7,"ts":9}',
    ])!;
    assert.deepEqual(rows(t), ['group Process 7', '  slices Async (1 rows)', '  slices Thread 1 (1 rows)']);
    assert.deepEqual(items(t, 1), ['a 1.000 5.000', 'req 2.000 9.000']);
  });
});

describe('Chrome trace timeline under hostile input', () => {
  it('draws at most MAX_THREADS threads apart; the rest share one row', () => {
    const lines = ['['];
    for (let i = 0; i < MAX_THREADS + 500; i++) lines.push(`{"ph":"X","name":"a","pid":1,"tid":${i},"ts":${i},"dur":1},`);
    const m = buildTimeline('x.trace.json', lines)!;
    const slices = m.tracks.filter((t) => t.kind === 'slices');
    assert.equal(slices.length, MAX_THREADS + 1);
    assert.equal(slices.filter((t) => t.name === '(other threads)').length, 1);
    assert.equal(m.items.start.length, MAX_THREADS + 500);
  });

  it('keeps each tid on its row when it comes again, as a number or a string, past the thread cap', () => {
    // Threads are looked up by the tid as read: 7 and "7" must stay one row, an overflowed tid the other row.
    const lines = ['['];
    for (let i = 0; i < MAX_THREADS + 20; i++) lines.push(`{"ph":"X","name":"a","pid":1,"tid":${i},"ts":${i},"dur":1},`);
    lines.push('{"ph":"X","name":"again","pid":1,"tid":"7","ts":1e6,"dur":1},', `{"ph":"X","name":"late","pid":"1","tid":"${MAX_THREADS + 5}","ts":1e6,"dur":1}`);
    const m = buildTimeline('x.trace.json', lines)!;
    assert.equal(m.tracks.filter((t) => t.kind === 'slices').length, MAX_THREADS + 1);
    const trackOf = (name: string) => {
      const i = m.items.name.indexOf(m.strings.indexOf(name));
      const r = m.rowItemStart.findIndex((s, k) => k + 1 < m.rowItemStart.length && s <= i && i < m.rowItemStart[k + 1]);
      return m.tracks.find((t) => t.kind === 'slices' && r >= t.rowStart && r < t.rowStart + t.rowCount)!.name;
    };
    assert.equal(trackOf('again'), 'Thread 7');
    assert.equal(trackOf('late'), '(other threads)');
  });

  it('draws at most MAX_COUNTERS counter series', () => {
    const lines = ['['];
    for (let i = 0; i < MAX_COUNTERS + 50; i++) lines.push(`{"ph":"C","name":"c${i}","pid":1,"ts":${i},"args":{"value":${i}}},`);
    assert.equal(buildTimeline('x.trace.json', lines)!.counters.length, MAX_COUNTERS);
  });
});

describe('Round trip: export to Chrome JSON, import it back', () => {
  it('keeps a counter\'s own key as its unit, never bytes/cycle, and writes it back under that key', () => {
    const lines = ['[', '{"ph":"C","name":"mem","pid":1,"ts":0,"args":{"bytes":10}},', '{"ph":"C","name":"mem","pid":1,"ts":5,"args":{"bytes":30}},',
      '{"ph":"C","name":"load","pid":1,"ts":0,"args":{"value":0.5}},', '{"ph":"C","name":"q","pid":1,"ts":2,"args":{"a\\"b":1}},', '{"ph":"X","name":"w","pid":1,"tid":1,"ts":0,"dur":10}', ']'];
    const m = buildTimeline('c.trace.json', lines)!;
    assert.deepEqual(m.counters.map((c) => `${c.name} ${c.unit}`), ['load value', 'mem bytes', 'q a"b']);
    const e = new ChromeTraceExporter(m);
    let json = e.head();
    lines.forEach((l, i) => (json += e.line(l, i)));
    json += e.tail();
    const cs = (JSON.parse(json) as { traceEvents: { ph: string; name: string; args: Record<string, number> }[] }).traceEvents.filter((x) => x.ph === 'C');
    assert.deepEqual([...new Set(cs.map((c) => `${c.name} ${Object.keys(c.args).join()}`))].sort(), ['load value', 'mem bytes', 'q a"b']);
    const back = buildTimeline('back.trace.json', json.split('\n'))!;
    assert.deepEqual(back.counters.map((c) => `${c.name} ${c.unit}`).sort(), ['load value', 'mem bytes', 'q a"b']);
  });

  for (const file of ['examples/llm-layer.trace.jsonl', 'examples/nnapi-mobilenet.systrace']) {
    it(`keeps every span, instant and counter of ${file}`, () => {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      const before = buildTimeline(file, lines)!;
      const e = new ChromeTraceExporter(before);
      let json = e.head();
      lines.forEach((l, i) => (json += e.line(l, i)));
      json += e.tail();
      const after = buildTimeline('back.trace.json', json.split('\n'))!;
      const scale = (before.nsPerCycle ?? 1000) / 1000;
      // Times agree to the exporter's precision (1e-6 µs); compared as numbers, never through rounding.
      const a = tuples(after, 1), b = tuples(before, scale);
      assert.equal(a.length, b.length);
      for (let i = 0; i < a.length; i++) {
        assert.equal(a[i][0], b[i][0]);
        assert.ok(Math.abs(a[i][1] - b[i][1]) < 2e-6 && (Math.abs(a[i][2] - b[i][2]) < 2e-6 || (Number.isNaN(a[i][2]) && Number.isNaN(b[i][2]))), `${a[i].join(' ')} vs ${b[i].join(' ')}`);
      }
      assert.equal(after.undrawable, 0);
      // Counters: same names under the same processes, the same time-weighted mean.
      const mean = (m: TimelineModel, k: number) => m.counters[k].values.reduce((a, v) => a + v, 0) / m.counters[k].values.length;
      assert.equal(after.counters.length, before.counters.length);
      for (let k = 0; k < before.counters.length; k++) {
        const j = after.counters.findIndex((c) => c.name.endsWith(before.counters[k].name));
        assert.ok(j >= 0, before.counters[k].name);
        assert.ok(Math.abs(mean(after, j) - mean(before, k)) <= 0.02 * Math.max(1, mean(before, k)), `${before.counters[k].name}: ${mean(after, j)} vs ${mean(before, k)}`);
      }
      assert.deepEqual(after.tracks.filter((t) => t.parent < 0).map((t) => t.name), before.tracks.filter((t) => t.parent < 0).map((t) => t.name));
    });
  }
});
