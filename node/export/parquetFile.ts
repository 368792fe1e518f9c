import { byteTimelineOf, type ByteFormat } from '../io/byteFiles';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ByteWriter, ParquetWriter } from 'hyparquet-writer' with { 'resolution-mode': 'import' };
import { DEFAULT_MAX_LINE_BYTES, MAX_JSON_DEPTH, nestsDeeperThan } from '../../core/common/lines';
import { NpuParquetRows } from '../../core/export/parquet/npuRows';
import { TABLES, type ColumnDef, type TableName } from '../../core/export/parquet/schema';
import { timelineSliceRows } from '../../core/export/parquet/timelineRows';
import { nnapiRows } from '../../core/export/parquet/nnapiRows';
import { inferscopeRows } from '../../core/export/parquet/inferscopeRows';
import { analyze } from '../../core/nnapi/analysis';
import { InferscopeDocument } from '../../core/inferscope/document';
import { inferscopeFormat } from '../../core/inferscope/descriptor';
import type { FormatDescriptor, ParquetTableSet } from '../../core/formatDescriptor';
import { readSystrace } from '../io/readSystrace';
import { kprofRegionRows } from '../../core/export/parquet/kprofRows';
import { decode, type Decoded } from '../../core/kprof/decode';
import { fileTooLarge, MAX_FILE_BYTES } from '../../core/kprof/errors';
import { detectLayout } from '../../core/kprof/layouts';
import { openBuffer } from '../../core/kprof/open';
import { inflateRaw, sidecarNames } from '../io/kprofFiles';
import { formatOfFile } from '../io/firstLine';
import type { ParquetExportResult } from '../../protocol/parquetWorker';
import { forEachLine, type ReadOptions } from '../io/lines';
import type { GzipEnd } from '../io/gunzip';
import { gzipEndForExport, SkippedLines, tooLongLines } from '../io/skippedLines';

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
export function parquetFormat(file: string): (FormatDescriptor & { parquetTables: ParquetTableSet }) | undefined {
  const f = formatOfFile(file);
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
  // A binary format's model comes from its bytes (a Perfetto trace), not from lines.
  const binary = !npu && !kprofFile && format?.byteTimeline ? format as ByteFormat : undefined;
  const builder = npu || kprofFile || binary ? undefined : format?.timeline?.({ metrics: false });
  if (!set || (!npu && !kprofFile && !binary && !builder)) throw new Error('no Parquet tables for this file type (NPU traces, NNAPI systraces, Chrome Trace JSON, InferScope)');
  const dir = join(outDir, run);
  mkdirSync(outDir, { recursive: true });
  // Written beside the run's directory and renamed into it once complete: a failed export never
  // leaves half a run, nor removes the earlier good export of the same run.
  const lib = await import('hyparquet-writer');
  const tmp = mkdtempSync(join(outDir, `.${run.slice(0, 100)}.partial-`));
  const names = TABLE_SETS[set];
  const files: Partial<Record<TableName, TableFile>> = {};
  const maxLineBytes = format.streamedLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const tooLong = tooLongLines(maxLineBytes);
  const tooDeep = new SkippedLines(`nested more than ${MAX_JSON_DEPTH} levels deep`);
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  const read: ReadOptions = { onTooLong: (n) => tooLong.add(n), maxLineBytes, gzip };
  try {
    for (const t of names) files[t] = new TableFile(lib, join(tmp, `${t}.parquet`), TABLES[t], run);
    const sink = (t: TableName, cols: unknown[][]) => files[t]!.write(cols);
    if (npu) {
      const rows = new NpuParquetRows(run, sink);
      // A line nested deeper than check reads is skipped unparsed (its fields would overflow the stack).
      const deep = (l: string) => l.length > MAX_JSON_DEPTH && nestsDeeperThan((i) => l.charCodeAt(i), 0, l.length, MAX_JSON_DEPTH);
      await forEachLine(file, (l, n) => (deep(l) ? tooDeep.add(n) : rows.addLine(l, n + 1)), onProgress, read);
      rows.finish();
    } else if (kprofFile) {
      kprofRegionRows(decodeKprof(file), run, sink);
      onProgress?.(statSync(file).size);
    } else if (binary) {
      timelineSliceRows(await byteTimelineOf(file, binary), run, sink);
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
      timelineSliceRows(builder!.finish(), run, sink);
    }
    const refused = gzipEndForExport(gzip).refuse;
    if (refused) throw new Error(refused);
    if (set === 'inferscope') inferscopeRows(readInferscope(file), run, sink);
    for (const t of names) files[t]!.finish();
  } catch (e) {
    // No tables of a file that could not be read: a reader would take them for the run.
    for (const t of names) {
      try {
        files[t]?.finish();
      } catch { /* already failing */ }
    }
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  let bytes = 0;
  for (const t of names) bytes += statSync(join(tmp, `${t}.parquet`)).size;
  moveTables(tmp, dir, names);
  const notes = [gzipEndForExport(gzip).note, tooLong.note(), tooDeep.note()].filter((n): n is string => n !== undefined);
  return { dir, rows: Object.fromEntries(names.map((t) => [t, files[t]!.rows])), bytes, ...(notes.length && { notes }) };
}

/**
 * Moves the complete tables from `tmp` into `dir`, one rename each (a reader sees the old table or
 * the new one, never half of one); nothing else in `dir` is touched.
 */
function moveTables(tmp: string, dir: string, names: readonly TableName[]): void {
  mkdirSync(dir, { recursive: true });
  for (const t of names) renameSync(join(tmp, `${t}.parquet`), join(dir, `${t}.parquet`));
  rmSync(tmp, { recursive: true, force: true });
}

/** Every launch of a profiler buffer, decoded as `npu-trace kprof` decodes it by default (layout detected, stride inferred, names stored or beside it). */
function decodeKprof(file: string): Decoded[] {
  const size = statSync(file).size;
  if (size > MAX_FILE_BYTES) throw new Error(fileTooLarge(size));
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
