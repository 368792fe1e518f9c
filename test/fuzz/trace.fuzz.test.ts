// Property-based fuzzing of the trace core: whatever the input, parsing, diagnostics, the index
// and the streaming checker never throw and every range lies inside its line.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { compareDiagnostics } from '../../core/common/diagnostic';
import { splitLines } from '../../core/common/lines';
import { defaultDiagnosticSettings } from '../../core/common/settings';
import { TraceDocument } from '../../core/trace/document';
import { TraceChecker } from '../../core/trace/checker';
import { fastTraceBytes } from '../../core/trace/fastBytes';
import { traceFormat } from '../../core/trace/descriptor';
import type { TraceLine } from '../../core/trace/line';
import { ChunkChecker } from '../../core/trace/chunkChecks';
import { ChunkMerger } from '../../core/trace/chunkMerge';
import { parseTraceLine } from '../../core/trace/parseLine';
import { forEachLine, forEachLineBytes } from '../../node/io/lines';
import { traceLines } from '../gen/genTrace';
import { assertSaneRanges } from '../unit/trace/helpers';
import { indexShape } from '../unit/trace/indexShape';
import { eventLine, traceLine } from '../unit/trace/lineGen';

const CODES = new Set(['trace.invalid-json', 'trace.not-object', 'trace.unknown-event-type', 'trace.missing-field', 'trace.wrong-type', 'trace.invalid-value',
  'trace.unmatched-start', 'trace.unmatched-end', 'trace.end-before-start', 'trace.latency-mismatch', 'trace.time-backwards', 'trace.unknown-cmd',
  'trace.duplicate-id', 'trace.meta-not-first', 'trace.reported-error', 'trace.reported-warning', 'too-many-problems']);
const SEVERITIES = new Set(['error', 'warning', 'information', 'hint']);

/** Everything the editor and the CLI do with a text; throws on any broken invariant. */
function exercise(text: string): void {
  const lines = splitLines(text);
  const doc = TraceDocument.parse(text);
  const all = doc.allDiagnostics();
  const shown = doc.diagnostics(defaultDiagnosticSettings);
  assertSaneRanges(all, lines);
  assertSaneRanges(shown, lines);
  assert.ok(shown.length <= defaultDiagnosticSettings.maxProblems + 1);
  for (const d of all) {
    assert.ok(CODES.has(d.code), `unknown code ${d.code}`);
    assert.ok(SEVERITIES.has(d.severity), `bad severity ${d.severity}`);
    // The generic fallback means the scanner accepted what JSON.parse rejected: it must not happen.
    assert.notEqual(d.message, 'Invalid JSON: Invalid JSON');
    assert.ok(d.message.length > 0 && !/undefined|NaN|\[object/.test(d.message.replace(/NaN is not valid JSON|"NaN"|NaN,/g, '')), `message: ${d.message}`);
  }
  const ix = indexShape(doc.index, lines.length);
  for (const m of Object.values(ix.byKey)) for (const ls of m.values()) for (const l of ls) assert.ok(l >= 0 && l < lines.length);
  for (const [end, start] of ix.startOf) assert.ok(start < end && end < lines.length);
  for (const m of Object.values(ix.definitions)) for (const l of m.values()) assert.ok(l >= 0 && l < lines.length);

  // The CLI's streaming checker sees the same lines and must say the same (it keeps no line
  // texts, so related ranges are left out of the comparison).
  const c = traceFormat.createChecker!();
  lines.forEach((l, i) => c.add(l, i));
  const strip = (ds: typeof all) => ds.map(({ related: _r, ...d }) => d).sort(compareDiagnostics);
  assert.deepEqual(strip(c.finish()), strip(all));

  // The CLI's real path: each line's UTF-8 bytes, certified by the byte scanner or parsed fully.
  const cb = traceFormat.createChecker!();
  const decode = (b: Uint8Array, st: number, e: number) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', st, e);
  lines.forEach((l, i) => {
    // Some bytes before and after, as in a real chunk holding many lines.
    const b = Buffer.from(`xx\n${l}\nyy`, 'utf8');
    const start = 3;
    cb.addBytes!(b, start, b.length - 3, i, decode);
  });
  assert.deepEqual(strip(cb.finish()), strip(all));
}

const lineEnd = fc.constantFrom('\n', '\r\n', '\r');
const trace = (line: fc.Arbitrary<string>, max = 40) =>
  fc.tuple(fc.array(fc.tuple(line, lineEnd), { maxLength: max }), fc.boolean()).map(([ls, finalEol]) => {
    const s = ls.map(([l, e]) => l + e).join('');
    return finalEol ? s : s.replace(/(\r\n|\r|\n)$/, '');
  });

/** Byte-level damage: flips, truncation, inserted bytes; decoded as an editor would (U+FFFD). */
const mutated = fc.tuple(trace(eventLine, 20), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('flip', 'insert', 'delete')), { maxLength: 8 }), fc.option(fc.nat(), { nil: undefined }))
  .map(([text, muts, cut]) => {
    const bytes = [...Buffer.from(text, 'utf8')];
    for (const [pos, byte, how] of muts) {
      const p = bytes.length ? pos % bytes.length : 0;
      if (how === 'flip') bytes[p] = byte;
      else if (how === 'insert') bytes.splice(p, 0, byte);
      else bytes.splice(p, 1);
    }
    const b = Buffer.from(cut === undefined ? bytes : bytes.slice(0, cut % (bytes.length + 1)));
    return new TextDecoder('utf-8').decode(b);
  });

const KEYS = ['event_type', 't_cycle', 'cmd_id', 'job_id', 'tx_id', 'latency_cycles', 'status', 'channel', 'msg', 'sim_config', 'stalled_clients', 'desc_addr', 'version'];
const TYPES = ['CMD_ENQUEUE', 'CMD_START', 'CMD_END', 'JOB_ISSUE', 'JOB_DONE', 'DMA_START', 'DMA_END', 'TE_END', 'VE_END', 'SRAM_CONFLICT', 'ERROR', 'WARN', 'TRACE_META'];
/** Objects with real keys and random JSON values: reaches the schema checks with every JSON type. */
const randomEvent = fc.tuple(fc.constantFrom(...TYPES), fc.dictionary(fc.constantFrom(...KEYS), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }))
  .map(([type, rest]) => JSON.stringify({ event_type: type, ...rest }));
const hugeNumber = fc.tuple(fc.constantFrom('cmd_id', 'tx_id', 't_cycle', 'desc_addr', 'latency_cycles'), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.constantFrom('', 'e400', '.5', 'e-400'))
  .map(([k, n, suffix]) => `{"event_type":"DMA_START","t_cycle":1,"channel":0,"tx_id":1,"${k}":${n}${suffix}}`);
const deep = fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('[', '{"a":'), fc.boolean())
  .map(([n, open, closed]) => `{"event_type":"IRQ_EMIT","t_cycle":1,"x":${open.repeat(n)}1${closed ? (open === '[' ? ']' : '}').repeat(n) + '}' : ''}`);
const controlChars = fc.string({ unit: fc.integer({ min: 0, max: 0x3f }).map((c) => String.fromCharCode(c)), maxLength: 60 })
  .map((s) => `{"event_type":"WARN","t_cycle":1,"component":"TE","code":"X","msg":"${s}"}`);

/**
 * The parallel check's merge: the lines cut into chunks at the given points, each checked alone
 * (its problems capped at `maxProblems`, as a worker keeps them), then merged in order, must give
 * exactly the problems and dropped counts of the one pass, related lines included.
 */
function viaChunks(text: string, cuts: number[], maxProblems: number): void {
  const decode = (b: Uint8Array, st: number, e: number) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', st, e);
  const parsed: TraceLine[] = splitLines(text).map((l) => {
    const b = Buffer.from(`x\n${l}\ny`, 'utf8');
    return fastTraceBytes(b, 2, b.length - 2, decode) ?? parseTraceLine(decode(b, 2, b.length - 2));
  });
  const direct = new TraceChecker(undefined, maxProblems);
  parsed.forEach((l, i) => direct.add(l, i));
  const merger = new ChunkMerger(maxProblems);
  const at = [...new Set([0, ...cuts.map((c) => c % (parsed.length + 1)), parsed.length])].sort((a, b) => a - b);
  for (let k = 0; k + 1 < at.length; k++) {
    const chunk = new ChunkChecker(maxProblems);
    for (let i = at[k]; i < at[k + 1]; i++) chunk.add(parsed[i], i - at[k]);
    const off = at[k];
    const found = chunk.problems.all();
    merger.merge(chunk.summary(), found, chunk.problems.dropped, chunk.problems.droppedError, off, (d) => ({ ...d, range: { start: { ...d.range.start, line: d.range.start.line + off }, end: { ...d.range.end, line: d.range.end.line + off } } }));
  }
  // Uncapped, a checker lists its problems in the order found; the CLI sorts them.
  assert.deepEqual(merger.finish().sort(compareDiagnostics), direct.finish().sort(compareDiagnostics));
  assert.deepEqual(merger.dropped, direct.dropped);
}

/** The generator's trace with lines replaced, moved latencies and times: every cross-line check fires somewhere. */
const damagedTrace = fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.array(fc.tuple(fc.nat(), traceLine, fc.integer({ min: -3, max: 3 })), { maxLength: 15 }))
  .map(([seed, edits]) => {
    const ls = [...traceLines({ events: 150, seed })];
    for (const [at, l, bump] of edits) {
      const i = at % ls.length;
      if (bump === 0) ls[i] = l;
      else ls[i] = ls[i].replace(/"(latency_cycles|t_cycle)":(\d+)/, (_m, k: string, v: string) => `"${k}":${Math.max(0, Number(v) + bump)}`);
    }
    return ls.join('\n');
  });

describe('trace fuzz', () => {
  it('a trace cut into chunks at random lines, checked apart and merged: the problems of the one pass', () =>
    fc.assert(fc.property(fc.oneof(trace(traceLine, 60), damagedTrace, trace(hugeNumber, 8), trace(fc.oneof(fc.json({ maxDepth: 2 }), randomEvent), 20)),
      fc.array(fc.nat(), { maxLength: 40 }), fc.constantFrom(Infinity, 0, 1, 2, 5), (text, cuts, max) => viaChunks(text, cuts, max)), { numRuns: 500 }));

  it('generated traces of valid and odd events', () => fc.assert(fc.property(trace(traceLine), exercise), { numRuns: 300 }));
  it('byte flips, insertions, deletions and truncation', () => fc.assert(fc.property(mutated, exercise), { numRuns: 300 }));
  it('random JSON lines', () => fc.assert(fc.property(trace(fc.oneof(fc.json({ maxDepth: 3 }), randomEvent), 20), exercise), { numRuns: 300 }));
  it('random binary strings', () => fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), exercise), { numRuns: 300 }));
  it('huge numbers', () => fc.assert(fc.property(trace(hugeNumber, 5), exercise), { numRuns: 200 }));
  it('deep nesting, closed and unclosed', () => fc.assert(fc.property(deep, exercise), { numRuns: 30 }));
  it('control characters inside strings', () => fc.assert(fc.property(controlChars, exercise), { numRuns: 200 }));

  it('node/io/lines.ts splits a file on disk exactly as the editor splits its text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-fuzz-'));
    try {
      const withBom = fc.tuple(fc.boolean(), fc.oneof(trace(traceLine, 10), mutated)).map(([bom, t]) => (bom ? '\uFEFF' + t : t));
      await fc.assert(fc.asyncProperty(withBom, async (text) => {
        const file = join(dir, 'f.trace.jsonl');
        writeFileSync(file, text);
        const got: string[] = [];
        const n = await forEachLine(file, (l, i) => {
          assert.equal(i, got.length);
          got.push(l);
        });
        assert.equal(n, got.length);
        // A leading BOM is dropped, as VS Code drops it from the document.
        assert.deepEqual(got, splitLines(text.replace(/^\uFEFF/, '')));
        const viaBytes: string[] = [];
        const m = await forEachLineBytes(file, (b, st, e, i, dec) => (viaBytes[i] = dec(b, st, e)), (l, i) => (viaBytes[i] = l));
        assert.equal(m, viaBytes.length);
        assert.deepEqual(viaBytes, got);
      }), { numRuns: 60 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
