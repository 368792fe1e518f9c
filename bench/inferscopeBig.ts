// The InferScope traces past 256 MB that README "Speed and limits" measures, and the timeline
// build fed one the way the editor does. Not part of `npm run bench`: minutes and gigabytes.
//   node --import tsx bench/inferscopeBig.ts gen OUT [--requests N] [--compact]   (OUT ending .gz: gzipped)
//   node --import tsx bench/inferscopeBig.ts gen OUT --events N [--request-scopes]   (N events on one line, a request at a time)
//   node --import tsx bench/inferscopeBig.ts timeline FILE [--lines | --worker DIST/timelineWorker.js]
//   node --import tsx bench/inferscopeBig.ts check FILE [--runs N]   (this checkout's dist/ vs the baseline's, alternated)
//   node --import tsx bench/inferscopeBig.ts analyze FILE [--runs N]   (the same for `analyze --json`, against main before it)
// timeline: in this process as the worker builds it (the text in pieces), with --lines fed line by
// line as it was before, with --worker by the bundled worker thread.
// Peak RSS: run under /usr/bin/time -v.
import { createWriteStream } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { createGzip } from 'node:zlib';
import { forEachLine } from '../node/io/lines';
import { buildFromText } from '../node/workers/timelineText';
import { timelineBuilderOf } from '../core/detectFormat';
import { headOf } from '../node/io/firstLine';
import type { TimelineModel } from '../core/timeline/model';
import { cold } from './cli';
import { baselineCli } from './baseline';
import { fmt, REPO } from './util';
import { inferscopeTrace, nextRequest, requestEvents, T0, type Ev } from '../test/gen/inferscopeGen';

/** Holds an array too long to write as one string. */
const big = (v: unknown): boolean => (Array.isArray(v) ? v.length > 1000 : !!v && typeof v === 'object' && Object.values(v).some(big));

/**
 * `v` as JSON.stringify(v, null, 2) (or compact) writes it, in pieces: the whole text of a
 * 957 000-event trace is longer than one V8 string.
 */
function* pieces(v: unknown, compact: boolean, indent = ''): Generator<string> {
  const inner = `${indent}  `;
  if (Array.isArray(v) && v.length > 1000) {
    yield compact ? '[' : '[\n';
    for (let i = 0; i < v.length; i++) {
      if (compact) yield `${i ? ',' : ''}${JSON.stringify(v[i])}`;
      else yield `${inner}${JSON.stringify(v[i], null, 2).replace(/\n/g, `\n${inner}`)}${i < v.length - 1 ? ',' : ''}\n`;
    }
    yield compact ? ']' : `${indent}]`;
    return;
  }
  if (v && typeof v === 'object' && !Array.isArray(v) && big(v)) {
    const keys = Object.keys(v);
    yield compact ? '{' : '{\n';
    for (let i = 0; i < keys.length; i++) {
      yield compact ? `${i ? ',' : ''}${JSON.stringify(keys[i])}:` : `${inner}${JSON.stringify(keys[i])}: `;
      yield* pieces((v as Record<string, unknown>)[keys[i]], compact, inner);
      if (!compact) yield i < keys.length - 1 ? ',\n' : '\n';
    }
    yield compact ? '}' : `${indent}}`;
    return;
  }
  yield compact ? JSON.stringify(v) : JSON.stringify(v, null, 2).replace(/\n/g, `\n${indent}`);
}

/** Writes `out` (gzipped when it ends in .gz) from `parts`, a megabyte at a time. */
async function writeParts(out: string, parts: Iterable<string>): Promise<void> {
  const file = createWriteStream(out);
  const sink = /\.gz$/i.test(out) ? createGzip({ level: 1 }) : undefined;
  sink?.pipe(file);
  const w = sink ?? file;
  let buf: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!w.write(buf.join(''))) await new Promise<void>((ok) => w.once('drain', () => ok()));
    buf = [];
    size = 0;
  };
  for (const p of parts) {
    buf.push(p);
    size += p.length;
    if (size > 1 << 20) await flush();
  }
  buf.push('\n');
  await flush();
  await new Promise<void>((ok) => {
    file.on('close', () => ok());
    w.end();
  });
}

/** The model of a file as the timeline worker builds it: in `worker` (the bundle), or here (fed line by line with `lines`). */
async function timeline(file: string, worker: string | undefined, lines: boolean): Promise<TimelineModel> {
  if (worker) {
    return new Promise((ok, fail) => {
      const w = new Worker(resolve(worker), { workerData: { kind: 'file', fileName: file, path: file } });
      w.on('message', (r: { kind: string; model?: TimelineModel; message?: string }) => {
        // The worker waits for a next job after its result (node/jobs/serveJobs.ts): ended here.
        if (r.kind === 'done') { ok(r.model!); void w.terminate(); }
        if (r.kind === 'error') { fail(new Error(r.message)); void w.terminate(); }
      });
      w.on('error', fail);
    });
  }
  if (!lines) {
    const m = await buildFromText(file, file);
    if (m) return m;
  }
  const b = timelineBuilderOf(file, headOf(file));
  await forEachLine(file, (l, n) => b!.addLine(l, n));
  return b!.finish();
}

/**
 * `npu-trace <cmd>` of this checkout's `dist/cli.js` against a baseline's (`BENCH_BASELINE`), a
 * fresh process each, alternated so both see the same load: wall and CPU time, peak RSS (its own,
 * read at exit), and the load average around each. The baselines of issue #29 item 9: for `check`
 * the main of before it (8698859), for `analyze` the main of before its analysis as the events
 * come (8516545).
 */
function vsBaseline(cmd: 'check' | 'analyze', file: string, runs: number): void {
  const rev = process.env.BENCH_BASELINE ?? (cmd === 'check' ? '8698859' : '8516545');
  const old = baselineCli(rev);
  if ('why' in old) throw new Error(`no ${rev} CLI: ${old.why}`);
  const now = join(REPO, 'dist/cli.js');
  const args = cmd === 'check' ? ['check', '--format', 'json', file] : ['analyze', '--json', file];
  for (let i = 0; i < runs; i++) {
    for (const [side, cli] of i % 2 ? [['before', old.file], ['now', now]] : [['now', now], ['before', old.file]]) {
      const load = loadavg()[0];
      const r = cold([cli, ...args]);
      console.log(`${side.padEnd(6)} exit ${r.code}: ${fmt(r.ms / 1000, 1)} s wall, ${fmt(r.cpuMs / 1000, 1)} s CPU, peak ${fmt(r.rssMb)} MB (load ${fmt(load, 1)} → ${fmt(loadavg()[0], 1)})`);
    }
  }
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: {
    requests: { type: 'string' }, compact: { type: 'boolean' }, worker: { type: 'string' }, lines: { type: 'boolean' }, events: { type: 'string' }, 'request-scopes': { type: 'boolean' },
    runs: { type: 'string' },
  } });
  const [cmd, file] = positionals;
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  if (cmd === 'gen' && values.events) await writeParts(file, oneLine(Number(values.events), !!values['request-scopes']));
  else if (cmd === 'gen') await gen(file, Number(values.requests ?? 87_029), !!values.compact);
  else if (cmd === 'timeline') {
    const m = await timeline(file, values.worker, !!values.lines);
    console.log(`${m.items.start.length} items, ${m.lineCount} lines`);
  } else if (cmd === 'check' || cmd === 'analyze') vsBaseline(cmd, file, Number(values.runs ?? 1));
  else throw new Error('gen OUT | timeline FILE | check FILE | analyze FILE');
  const cpu = process.cpuUsage(t0);
  console.log(`${cmd}: ${((performance.now() - w0) / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU (this thread's process)`);
}

async function gen(out: string, requests: number, compact: boolean): Promise<void> {
  await writeParts(out, pieces(inferscopeTrace({ requests, kernels: 3 }), compact));
}

/**
 * At least `events` events on one line, the generator's requests one after the other (tokenize,
 * instant, malloc, H2D, 3 kernels on each of streams 7 and 8, D2H: 11 events), as json.dump writes
 * it without indent; no trace of this size fits in memory as objects, so it is written a request
 * at a time. The scopes: the root `inference` scope over every event, and with `requestScopes`
 * the three scopes of each request under it as well.
 */
function* oneLine(events: number, requestScopes: boolean): Generator<string> {
  const head = inferscopeTrace({ requests: 0 });
  yield `{"format_version":"1.0","trace_metadata":${JSON.stringify(head.trace_metadata)},"system_info":${JSON.stringify(head.system_info)},"events":[`;
  const scopes: Ev[] = [];
  let n = 0;
  let t = T0;
  for (let r = 0; n < events; r++) {
    const q = requestEvents(r, t, 3, n);
    yield `${n ? ',' : ''}${q.events.map((e) => JSON.stringify(e)).join(',')}`;
    n += q.events.length;
    if (requestScopes) scopes.push(...q.scopes);
    t = nextRequest(q.end);
  }
  yield `],"relationships":{"scopes":[${JSON.stringify({ id: 'scope_inference', name: 'inference', parent_id: null, child_ids: scopes.filter((s) => s.parent_id === 'scope_inference').map((s) => s.id), event_range: [0, n - 1] })}`;
  for (const s of scopes) yield `,${JSON.stringify(s)}`;
  yield ']}}';
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
