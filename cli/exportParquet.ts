import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ByteWriter, ParquetWriter } from 'hyparquet-writer' with { 'resolution-mode': 'import' };
import { DEFAULT_MAX_LINE_BYTES } from '../core/common/lines';
import { escapeControl } from '../core/common/escape';
import { NpuParquetRows } from '../core/export/parquet/npuRows';
import { TABLES, type ColumnDef, type TableName } from '../core/export/parquet/schema';
import { timelineSliceRows } from '../core/export/parquet/timelineRows';
import { nnapiRows } from '../core/export/parquet/nnapiRows';
import { inferscopeRows } from '../core/export/parquet/inferscopeRows';
import { analyze } from '../core/nnapi/analysis';
import { InferscopeDocument } from '../core/inferscope/document';
import { inferscopeFormat } from '../core/inferscope/descriptor';
import type { FormatDescriptor, ParquetTableSet } from '../core/formatDescriptor';
import { readSystrace } from './readSystrace';
import { kprofRegionRows } from '../core/export/parquet/kprofRows';
import { decode, type Decoded } from '../core/kprof/decode';
import { MAX_BUFFER_BYTES } from '../core/kprof/errors';
import { detectLayout } from '../core/kprof/layouts';
import { openBuffer } from '../core/kprof/open';
import { inflateRaw, sidecarNames } from './kprof';
import { detectFormat, formatByName } from '../core/detectFormat';
import { baseName, nameMatches } from '../core/fileHead';
import { headOf } from './firstLine';
import type { ParquetJob, ParquetProgressMessage } from './exportParquetWorker';
import { percentSteps, progressLine, type ExportProgress } from './exportProgress';
import { forEachLine, type ReadOptions } from './lines';

/** Bytes buffered before a write to disk: the writer's buffer stays this size whatever the file. */
const FLUSH_BYTES = 1 << 20;

// An ES module: loaded with import() from this CommonJS code (the bundle inlines it).
type HyparquetWriter = typeof import('hyparquet-writer', { with: { 'resolution-mode': 'import' } });
type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];

function schemaOf(cols: ColumnDef[]): SchemaElement[] {
  return [
    { name: 'root', num_children: cols.length },
    ...cols.map((c): SchemaElement => c.type === 'STRING'
      ? { name: c.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }
      : { name: c.name, type: c.type, repetition_type: 'OPTIONAL' }),
  ];
}

/** hyparquet-writer's ByteWriter, emptied into `fd` past FLUSH_BYTES instead of growing with the file. */
function fdWriter(lib: HyparquetWriter, fd: number): ByteWriter {
  const w = new lib.ByteWriter();
  const flush = () => {
    let off = 0;
    while (off < w.index) off += writeSync(fd, new Uint8Array(w.buffer, off, w.index - off));
    w.index = 0;
  };
  const ensure = w.ensure.bind(w);
  w.ensure = (size: number) => {
    if (w.index > FLUSH_BYTES) flush();
    ensure(size);
  };
  w.finish = flush;
  return w;
}

class TableFile {
  private readonly fd: number;
  private readonly writer: ParquetWriter;
  rows = 0;
  constructor(lib: HyparquetWriter, path: string, private readonly cols: ColumnDef[], run: string) {
    this.fd = openSync(path, 'w');
    this.writer = new lib.ParquetWriter({
      writer: fdWriter(lib, this.fd), schema: schemaOf(cols), codec: 'SNAPPY', createdBy: 'npu-trace export',
      kvMetadata: [{ key: 'npu_trace.run', value: run }],
    });
  }

  write(columns: unknown[][]): void {
    this.rows += columns[0].length;
    void this.writer.write({ columnData: columns.map((data, i) => ({ name: this.cols[i].name, data })), rowGroupSize: columns[0].length });
  }

  finish(): void {
    try {
      void this.writer.finish();
    } finally {
      closeSync(this.fd);
    }
  }
}

export interface ParquetExportResult {
  dir: string;
  /** Rows per table written. */
  rows: Partial<Record<TableName, number>>;
  bytes: number;
}

/** The run name of a file without `--run-id`: its name without the trace suffixes. */
export function runOf(file: string): string {
  return basename(file).replace(/\.gz$/i, '').replace(/\.trace\.jsonl$/i, '').replace(/\.jsonl$/i, '');
}

/** Which tables a file gets, from its format. */
const TABLE_SETS: Record<ParquetTableSet, TableName[]> = {
  npu: ['events', 'spans', 'commands'],
  nnapi: ['slices', 'nnapi_runs', 'nnapi_scopes'],
  inferscope: ['slices', 'inferscope_events', 'inferscope_scopes'],
  kprof: ['kprof_regions'],
  timeline: ['slices'],
};

/** The format of a file (`detectFormat`) when it has Parquet tables. */
function parquetFormat(file: string): (FormatDescriptor & { parquetTables: ParquetTableSet }) | undefined {
  const f = detectFormat(file, headOf(file));
  return f?.parquetTables ? f as FormatDescriptor & { parquetTables: ParquetTableSet } : undefined;
}

/**
 * Exports one file as `OUT/<run>/<table>.parquet` (README "Export to Parquet"): an NPU trace as
 * `events`, `spans` and `commands`, streamed (each row group goes to disk as soon as it is full);
 * another format with a timeline as `slices`, from its timeline model, and its own tables after
 * (NNAPI: `nnapi_runs`, `nnapi_scopes`; InferScope: `inferscope_events`, `inferscope_scopes`).
 * `onProgress` hears the bytes read of the file (of the timeline pass for the other formats).
 */
export async function exportParquetFile(file: string, outDir: string, run: string, onProgress?: (bytesRead: number) => void): Promise<ParquetExportResult> {
  const format = parquetFormat(file);
  const set = format?.parquetTables;
  const npu = set === 'npu';
  const kprofFile = set === 'kprof';
  const builder = npu || kprofFile ? undefined : format?.timeline?.({ metrics: false });
  if (!set || (!npu && !kprofFile && !builder)) throw new Error('no Parquet tables for this file type (NPU traces, NNAPI systraces, Chrome Trace JSON, InferScope)');
  const dir = join(outDir, run);
  mkdirSync(dir, { recursive: true });
  const lib = await import('hyparquet-writer');
  const names = TABLE_SETS[set];
  const files: Partial<Record<TableName, TableFile>> = {};
  let tooLong: number | undefined;
  const read: ReadOptions = { onTooLong: (n) => (tooLong ??= n), maxLineBytes: format.streamedLineBytes ?? DEFAULT_MAX_LINE_BYTES };
  try {
    for (const t of names) files[t] = new TableFile(lib, join(dir, `${t}.parquet`), TABLES[t], run);
    const sink = (t: TableName, cols: unknown[][]) => files[t]!.write(cols);
    if (npu) {
      const rows = new NpuParquetRows(run, sink);
      await forEachLine(file, (l, n) => rows.addLine(l, n + 1), onProgress, read);
      rows.finish();
    } else if (kprofFile) {
      kprofRegionRows(decodeKprof(file), run, sink);
      onProgress?.(statSync(file).size);
    } else {
      let timelineProgress = onProgress;
      if (set === 'nnapi') {
        // Read twice: the analysis first (its trees are garbage before the timeline model grows:
        // 1M-line systrace 968 -> 635 MB peak RSS), each pass counting for half of the progress.
        const size = statSync(file).size;
        nnapiRows(analyze(await readSystrace(file, onProgress && ((b) => onProgress(b / 2)))), run, sink);
        timelineProgress = onProgress && ((b) => onProgress((size + b) / 2));
      }
      await forEachLine(file, (l, n) => builder!.addLine(l, n), timelineProgress, read);
      if (tooLong === undefined) timelineSliceRows(builder!.finish(), run, sink);
    }
    if (tooLong !== undefined) throw new Error(`line ${tooLong + 1} is too long to read`);
    if (set === 'inferscope') inferscopeRows(readInferscope(file), run, sink);
  } catch (e) {
    // No tables of a file that could not be read whole: a reader would take them for the run.
    for (const t of names) {
      files[t]?.finish();
      rmSync(join(dir, `${t}.parquet`), { force: true });
    }
    throw e;
  }
  for (const t of names) files[t]!.finish();
  let bytes = 0;
  for (const t of names) bytes += statSync(join(dir, `${t}.parquet`)).size;
  return { dir, rows: Object.fromEntries(names.map((t) => [t, files[t]!.rows])), bytes };
}

/** Every launch of a profiler buffer, decoded as `npu-trace kprof` decodes it by default (layout detected, stride inferred, names stored or beside it). */
function decodeKprof(file: string): Decoded[] {
  const size = statSync(file).size;
  if (size > MAX_BUFFER_BYTES + (1 << 20)) throw new Error(`the file is ${size} bytes, over the ${MAX_BUFFER_BYTES} bytes a buffer may have`);
  const opened = openBuffer(file, readFileSync(file), inflateRaw);
  const names = opened.names ?? sidecarNames(file);
  return opened.launches.map((buf) => decode(buf, { layout: detectLayout(buf.words, buf.slots), names }));
}

/** An InferScope trace read whole, as `npu-trace analyze` reads it (within the format's document limit). */
function readInferscope(file: string): InferscopeDocument {
  const max = inferscopeFormat.maxDocumentBytes!;
  const size = statSync(file).size;
  if (size > max) throw new Error(`${size} bytes is over the ${max}-byte limit of an InferScope document read whole`);
  const text = readFileSync(file, 'utf8');
  return InferscopeDocument.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

/** `--run-id` and file names become directory names: one plain name each. */
const SAFE_RUN = /^[^/\\\0]{1,200}$/;

/** The worker bundle beside the CLI bundle (dist/), or undefined when running from source. */
function workerFile(): string | undefined {
  return [join(__dirname, 'exportParquetWorker.js'), join(__dirname, '..', 'dist', 'exportParquetWorker.js')].find((f) => existsSync(f));
}

export type Outcome = { result: ParquetExportResult } | { error: string };

/**
 * The heap of a thread exporting an NPU trace: it holds one row group per table, the open STARTs and
 * a record per command, far less; without a limit V8 grows its heap with the garbage of the lines
 * (the 10M-event trace peaked at 503 MB RSS).
 */
const NPU_HEAP_MB = 256;

/**
 * Exports one file in a worker thread of its own (a fresh heap per file), `onProgress` hearing how
 * far it has read (once per whole percent); `signal` (the editor's Cancel) terminates the thread at
 * once and settles as an error.
 */
export function inWorker(bundle: string, job: ParquetJob, signal?: AbortSignal, onProgress?: (p: ExportProgress) => void): Promise<Outcome> {
  return new Promise((resolve) => {
    const w = new Worker(bundle, { resourceLimits: job.npu ? { maxOldGenerationSizeMb: NPU_HEAP_MB } : undefined });
    let settled = false;
    const cancel = () => end({ error: 'cancelled' });
    const end = (o: Outcome) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', cancel);
      void w.terminate();
      resolve(o);
    };
    if (signal?.aborted) return end({ error: 'cancelled' });
    signal?.addEventListener('abort', cancel);
    w.on('message', (m: Outcome | ParquetProgressMessage) => {
      if ('progress' in m) onProgress?.(m.progress);
      else end(m);
    });
    w.on('error', (e: NodeJS.ErrnoException) => end({ error: e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `the export ran out of its ${NPU_HEAP_MB} MB heap` : e.message }));
    w.on('exit', () => end({ error: 'the export thread stopped' }));
    w.postMessage(job);
  });
}

/** Exports `threads` files at a time, each in a worker thread; `done` hears of each file as it finishes. */
async function inWorkers(bundle: string, jobs: ParquetJob[], threads: number, done: (i: number, o: Outcome) => void, progress?: (i: number, p: ExportProgress) => void): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++];
      done(job.i, await inWorker(bundle, job, undefined, progress && ((p) => progress(job.i, p))));
    }
  };
  await Promise.all(Array.from({ length: Math.min(threads, jobs.length) }, lane));
}

/**
 * `npu-trace export FILE|DIR… --to parquet -o OUT_DIR [--run-id NAME] [--jobs N]`: each file in turn
 * (or N at a time in worker threads), a line on stderr per file as it is done (its tables' rows),
 * exit 0, or 2 when a file could not be exported (the others still are).
 */
/** Whether a file of a directory argument has Parquet tables, by its name alone (`formatByName`). */
function exportable(file: string): boolean {
  const f = formatByName(file);
  if (!f?.parquetTables) return false;
  const base = baseName(file);
  return !f.parquetNames || f.parquetNames.some((g) => nameMatches(g, base));
}

function expand(args: string[]): string[] {
  return args.flatMap((a) => statSync(a, { throwIfNoEntry: false })?.isDirectory()
    ? readdirSync(a, { recursive: true, encoding: 'utf8' }).filter(exportable).sort().map((f) => join(a, f))
    : [a]);
}

export async function exportParquetCommand(args: string[], outDir: string | undefined, runId: string | undefined, jobsArg: string | undefined, usage: (msg: string) => number): Promise<number> {
  if (!outDir || outDir === '-') return usage('--to parquet needs -o OUT_DIR (a directory: one subdirectory of tables per file)');
  const files = expand(args);
  if (!files.length) return usage('no NPU trace, systrace or InferScope trace in the directories given');
  if (runId !== undefined && files.length !== 1) return usage('--run-id names one file; with many, each run is named after its file');
  const threads = jobsArg === undefined ? 1 : Number(jobsArg);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) return usage(`--jobs takes a number of threads from 1 to 64, got ${JSON.stringify(jobsArg)}`);
  const runs = files.map((f) => runId ?? runOf(f));
  const seen = new Set<string>();
  for (const r of runs) {
    if (!SAFE_RUN.test(r) || r === '.' || r === '..') return usage(`${JSON.stringify(r)} cannot name a run directory`);
    if (seen.has(r)) return usage(`two files are named ${JSON.stringify(r)}: export them in separate calls with --run-id`);
    seen.add(r);
  }
  let code = 0;
  const t0 = performance.now();
  // On a terminal, a status line of the file read last (percent of its bytes), rewritten in place
  // and cleared before each line a file is done; never in a pipe or a log.
  let status = false;
  const progress = process.stderr.isTTY ? (i: number, p: ExportProgress) => {
    process.stderr.write(progressLine(`npu-trace export: [${i + 1}/${files.length}]`, files[i], p));
    status = true;
  } : undefined;
  const report = (i: number, o: Outcome) => {
    if (status) process.stderr.write('\r\x1b[K');
    status = false;
    const head = `npu-trace export: [${i + 1}/${files.length}] ${escapeControl(files[i])}`;
    if ('error' in o) {
      process.stderr.write(`${head}: ${escapeControl(o.error)}\n`);
      code = 2;
      return;
    }
    const r = o.result;
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    const counts = Object.entries(r.rows).map(([t, n]) => `${n} ${t}`).join(', ');
    process.stderr.write(`${head} -> ${escapeControl(r.dir)}: ${counts}, ${r.bytes} bytes at ${s} s\n`);
  };
  const jobs: ParquetJob[] = [];
  files.forEach((file, i) => {
    if (statSync(file, { throwIfNoEntry: false })?.isFile()) jobs.push({ i, file, outDir, run: runs[i], npu: parquetFormat(file)?.parquetTables === 'npu' });
    else report(i, { error: 'no such file' });
  });
  // In worker threads whenever the bundle is there (one at a time without --jobs): a heap per file, bounded for NPU traces.
  const bundle = workerFile();
  if (bundle) await inWorkers(bundle, jobs, threads, report, progress);
  else {
    for (const j of jobs) {
      try {
        const onProgress = progress && percentSteps(statSync(j.file).size, (p) => progress(j.i, p));
        report(j.i, { result: await exportParquetFile(j.file, j.outDir, j.run, onProgress) });
      } catch (e) {
        report(j.i, { error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
  return code;
}
