// The Chrome Trace checks and the streaming event splitter, on fixtures with one planted problem per code.
import { CHROME_CODES } from '../../../core/chrome/codes';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChromeChecker } from '../../../core/chrome/checks';
import { looksLikeChromeTrace } from '../../../core/chrome/detect';
import { detectFormat } from '../../../core/detectFormat';
import { ChromeEventStream, type RawEvent } from '../../../core/chrome/stream';
import { pytorchTrace } from '../../gen/chromeGen';

const FIX = join(__dirname, '..', '..', 'fixtures', 'chrome');

function check(text: string): string[] {
  const c = new ChromeChecker();
  text.split('\n').forEach((l, i) => c.add(l, i));
  return c.finish().map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.severity} ${d.code}`).sort();
}

function events(lines: string[]): RawEvent[] {
  const out: RawEvent[] = [];
  const s = new ChromeEventStream({ event: (e) => out.push(e), broken: (m) => out.push({ text: `BROKEN ${m}`, line: -1, character: -1 }) });
  lines.forEach((l, i) => s.feed(l, i));
  s.end();
  return out;
}

describe('Chrome trace checks', () => {
  it('reports each planted problem of the faulty fixture on its token', () => {
    const got = check(readFileSync(join(FIX, 'faulty.trace.json'), 'utf8'));
    assert.deepEqual(got, [
      '10:20-10:27 error chrome.misnested',
      '11:54-11:60 error chrome.ts-not-number',
      '12:53-12:59 information chrome.ts-string',
      '13:7-13:10 error chrome.unpaired-async',
      '14:7-14:10 error chrome.unpaired-async',
      '15:7-15:10 warning chrome.unpaired-flow',
      '16:7-16:10 warning chrome.unpaired-flow',
      '17:65-17:71 error chrome.counter-not-numeric',
      '18:29-18:30 error chrome.invalid-json',
      '19:0-19:2 error chrome.not-object',
      '21:0-21:0 information chrome.truncated',
      '2:63-2:72 warning chrome.duplicate-metadata',
      '4:7-4:10 error chrome.unknown-ph',
      '5:7-5:10 error chrome.missing-dur',
      '6:63-6:65 error chrome.negative-dur',
      '7:7-7:10 error chrome.unmatched-end',
      '8:7-8:10 warning chrome.unclosed-begin',
    ]);
  });

  it('finds nothing wrong in a PyTorch-profiler-shaped trace (M at the end, ts 0, flows across processes)', () => {
    assert.deepEqual(check(pytorchTrace()), []);
  });

  it('accepts X with tdur and no dur, capital I instants, string pids mixed with numbers', () => {
    assert.deepEqual(check('[{"ph":"X","name":"a","pid":"Spans","tid":1,"ts":1,"tdur":2},{"ph":"I","pid":"Spans","tid":"1","ts":2},{"ph":"B","pid":7,"tid":"","ts":3},{"ph":"E","pid":"7","tid":"","ts":4}]'), []);
  });

  it('pairs flows of the bind_id form (flow_out → flow_in on slices), one start fanning out', () => {
    const x = (o: string) => `{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,${o}}`;
    assert.deepEqual(check(`[${x('"bind_id":"0x1","flow_out":true')},\n${x('"bind_id":"0x1","flow_in":true')},\n${x('"bind_id":"0x1","flow_in":true')}]`), []);
    assert.deepEqual(check(`[${x('"bind_id":7,"flow_out":true')},\n${x('"bind_id":8,"flow_in":true')}]`), ['0:63-0:64 warning chrome.unpaired-flow', '1:62-1:63 warning chrome.unpaired-flow']);
  });

  it('says a top-level object without traceEvents is not a trace, and a document cut off inside a key', () => {
    assert.deepEqual(check('{"events": []}'), ['0:0-0:1 error chrome.not-trace']);
    assert.deepEqual(check('{"traceEvents": [], "other'), ['0:26-0:26 error chrome.not-trace']);
  });

  it('puts problems of a one-line file at their character, not at the line start', () => {
    const one = `[${'{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},'.repeat(1000)}{"ph":"Z","pid":1,"tid":1,"ts":2}]`;
    assert.deepEqual(check(one), [`0:${1 + 53 * 1000 + 6}-0:${1 + 53 * 1000 + 9} error chrome.unknown-ph`]);
  });

  it('does not hold an event over 16 MB: it is reported, the next one read', () => {
    assert.deepEqual(check(`[{"ph":"X","pad":"${'x'.repeat(17 << 20)}"},\n{"ph":"Z","ts":1}]`), ['0:1-0:16777217 error chrome.event-too-large', '1:6-1:9 error chrome.unknown-ph']);
  });

  it('the code list (the manual\'s table) documents exactly the codes the checks produce', () => {
    const documented = [...new Set(CHROME_CODES.map((c) => c.code))].sort();
    const src = readFileSync(join(__dirname, '..', '..', '..', 'core', 'chrome', 'checks.ts'), 'utf8');
    const produced = [...new Set([...src.matchAll(/'(chrome\.[a-z-]+)'/g)].map((m) => m[1]))].sort();
    assert.deepEqual(documented, produced);
  });

  it('caps the problems while it produces them', () => {
    const c = new ChromeChecker({ maxProblems: 5 });
    c.add('[', 0);
    for (let i = 1; i <= 2000; i++) c.add('{"ph":"Z","ts":1},', i);
    assert.equal(c.finish().length, 5);
    assert.deepEqual(c.dropped(), { count: 1996, hasError: true });
  });
});

describe('Chrome event stream', () => {
  it('splits the array form with a trailing "}," and no closing bracket', () => {
    const es = events(['[', '{"ph":"X","ts":1},', '{"ph":"i","ts":2},']);
    assert.deepEqual(es.map((e) => [e.text, e.line, e.character]), [['{"ph":"X","ts":1}', 1, 0], ['{"ph":"i","ts":2}', 2, 0]]);
  });

  it('joins an event spread over several lines and maps its offsets back', () => {
    const es = events(['{"traceEvents": [{', '  "ph": "X",', '  "name": "a}]\\"{"', '}], "displayTimeUnit": "ns"}']);
    assert.equal(es.length, 1);
    assert.deepEqual(JSON.parse(es[0].text), { ph: 'X', name: 'a}]"{' });
    assert.deepEqual([es[0].line, es[0].character, es[0].lineStarts], [0, 17, [2, 15, 34]]);
  });

  it('skips top-level keys before traceEvents, whatever they hold', () => {
    const es = events(['{"deviceProperties": [{"a": "]}"}], "x": {"traceEvents": 1}, "traceEvents": [{"ph":"M"}]}']);
    assert.deepEqual(es.map((e) => e.text), ['{"ph":"M"}']);
  });

  it('says once that text is not a trace, and stops', () => {
    assert.deepEqual(events(['hello', '[{}]']).map((e) => e.text), ['BROKEN expected a JSON object with "traceEvents" or an array of events']);
  });

  it('skips a stray "}" between events instead of looping on it', () => {
    assert.deepEqual(events(['[{"ph":"X"}},{"ph":"i"}]']).map((e) => e.text), ['{"ph":"X"}', 'BROKEN a "}" between events closes nothing', '{"ph":"i"}']);
  });
});

describe('Chrome trace recognition', () => {
  const isChromeTraceFile = (name: string, head: string) => detectFormat(name, head)?.id === 'chrome-trace';
  it('by name, and for other JSON by its head', () => {
    assert.ok(isChromeTraceFile('run.pt.trace.json', ''));
    assert.ok(isChromeTraceFile('run.trace.json.gz', ''));
    assert.ok(isChromeTraceFile('dump.json', '{"displayTimeUnit":"ns","traceEvents":['));
    assert.ok(isChromeTraceFile('dump.json.gz', '[{"name":"a","ph":"X","ts":1,"dur":1,"pid":1,"tid":1},'));
    assert.ok(isChromeTraceFile('capture.gz', '{"traceEvents":['));
    assert.ok(!isChromeTraceFile('capture.gz', '{"event_type":"CMD_START"}'));
    assert.ok(!isChromeTraceFile('golden.cmdq.json', '{"metadata": {}, "cmdq": ['));
    assert.ok(!isChromeTraceFile('notes.txt', '{"traceEvents":['));
    // Proton's one-line `*.chrome_trace`, JAX's `perfetto_trace.json.gz`: by name.
    assert.ok(isChromeTraceFile('matmul.chrome_trace', ''));
    assert.ok(isChromeTraceFile('plugins/profile/2026_01_01/perfetto_trace.json.gz', ''));
    // PyTorch's export_chrome_trace("trace.json"): `{` alone on the first line, traceEvents after deviceProperties.
    assert.ok(isChromeTraceFile('trace.json', pytorchTrace(1)));
  });
});

describe('Chrome trace detection in an opened .json', () => {
  it('finds traceEvents after other keys of a pretty-printed object, and an array of events', () => {
    assert.ok(looksLikeChromeTrace(pytorchTrace(1)));
    assert.ok(looksLikeChromeTrace('[\n  {"name": "a", "ph": "X", "ts": 1, "dur": 1}'));
    assert.ok(!looksLikeChromeTrace('{"metadata": {}, "cmdq": [{"id": 0, "opcode": "END", "layer_id": null, "deps_before": []}]}'));
    assert.ok(!looksLikeChromeTrace('[1, 2, 3]'));
    assert.ok(!looksLikeChromeTrace('{"x": {"traceEvents": []}}'));
    assert.ok(!looksLikeChromeTrace('not json'));
  });
});

describe('Chrome trace: numbers beyond a double (#29 item 14)', () => {
  const messages = (text: string) => {
    const c = new ChromeChecker();
    text.split('\n').forEach((l, i) => c.add(l, i));
    return c.finish().map((d) => `${d.code} ${d.message}`);
  };
  it('"ts": 1e400 is out of range, quoted as written (JSON.parse made it Infinity, written back as null)', () => {
    const m = messages('{"traceEvents": [\n{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1e400, "dur": 1}\n]}');
    assert.deepEqual(m, ['chrome.number-out-of-range "ts" 1e400 is out of range: beyond the largest number a double holds (about 1.8e308), JSON readers make it Infinity or null']);
  });
  it('"dur": -1E999 is out of range, not a missing dur; a string holding such a number too', () => {
    const m = messages('{"traceEvents": [\n{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": -1E999},\n{"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": "2e999", "dur": 1}\n]}');
    assert.deepEqual(m, [
      'chrome.number-out-of-range "dur" -1E999 is out of range: beyond the largest number a double holds (about 1.8e308), JSON readers make it Infinity or null',
      'chrome.number-out-of-range "ts" "2e999" is out of range: beyond the largest number a double holds (about 1.8e308), JSON readers make it Infinity or null',
    ]);
  });
});
