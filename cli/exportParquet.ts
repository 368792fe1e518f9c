import { closeSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ByteWriter, ParquetWriter } from 'hyparquet-writer' with { 'resolution-mode': 'import' };
import { DEFAULT_MAX_LINE_BYTES } from '../core/common/lines';
import { escapeControl } from '../core/common/escape';
import { NpuParquetRows } from '../core/export/parquet/npuRows';
import { NPU_TABLES, type ColumnDef, type NpuTable } from '../core/export/parquet/schema';
import { formatFor } from '../core/formats';
import { traceFormat } from '../core/trace/format';
import { firstLineOf } from './firstLine';
import { forEachLine } from './lines';

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
  rows: Record<NpuTable, number>;
  bytes: number;
}

/** The run name of a file without `--run-id`: its name without the trace suffixes. */
export function runOf(file: string): string {
  return basename(file).replace(/\.gz$/i, '').replace(/\.trace\.jsonl$/i, '').replace(/\.jsonl$/i, '');
}

/**
 * Exports one NPU trace as `OUT/<run>/{events,spans,commands}.parquet` (README "Export to Parquet"),
 * streaming: each table's row group goes to disk as soon as it is full.
 */
export async function exportParquetFile(file: string, outDir: string, run: string, onProgress?: (bytesRead: number) => void): Promise<ParquetExportResult> {
  if (formatFor(file, firstLineOf(file)) !== traceFormat) throw new Error('Parquet export reads NPU traces (.trace.jsonl[.gz]) for now');
  const dir = join(outDir, run);
  mkdirSync(dir, { recursive: true });
  const lib = await import('hyparquet-writer');
  const files = {} as Record<NpuTable, TableFile>;
  const names = Object.keys(NPU_TABLES) as NpuTable[];
  try {
    for (const t of names) files[t] = new TableFile(lib, join(dir, `${t}.parquet`), NPU_TABLES[t], run);
    const rows = new NpuParquetRows(run, (t, cols) => files[t].write(cols));
    let tooLong: number | undefined;
    await forEachLine(file, (l, n) => rows.addLine(l, n + 1), onProgress, { maxLineBytes: DEFAULT_MAX_LINE_BYTES, onTooLong: (n) => (tooLong ??= n) });
    if (tooLong !== undefined) throw new Error(`line ${tooLong + 1} is too long to read`);
    rows.finish();
  } finally {
    for (const t of names) files[t]?.finish();
  }
  let bytes = 0;
  for (const t of names) bytes += statSync(join(dir, `${t}.parquet`)).size;
  return { dir, rows: { events: files.events.rows, spans: files.spans.rows, commands: files.commands.rows }, bytes };
}

/** `--run-id` and file names become directory names: one plain name each. */
const SAFE_RUN = /^[^/\\\0]{1,200}$/;

/**
 * `npu-trace export FILE… --to parquet -o OUT_DIR [--run-id NAME]`: each file in turn, a line on
 * stderr per file (its tables' rows), exit 0, or 2 when a file could not be exported (the others
 * still are).
 */
export async function exportParquetCommand(files: string[], outDir: string | undefined, runId: string | undefined, usage: (msg: string) => number): Promise<number> {
  if (!outDir || outDir === '-') return usage('--to parquet needs -o OUT_DIR (a directory: one subdirectory of tables per file)');
  if (runId !== undefined && files.length !== 1) return usage('--run-id names one file; with many, each run is named after its file');
  const runs = files.map((f) => runId ?? runOf(f));
  const seen = new Set<string>();
  for (const r of runs) {
    if (!SAFE_RUN.test(r) || r === '.' || r === '..') return usage(`${JSON.stringify(r)} cannot name a run directory`);
    if (seen.has(r)) return usage(`two files are named ${JSON.stringify(r)}: export them in separate calls with --run-id`);
    seen.add(r);
  }
  let code = 0;
  for (let i = 0; i < files.length; i++) {
    const file = files[i];
    const head = `npu-trace export: [${i + 1}/${files.length}] ${escapeControl(file)}`;
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) {
      process.stderr.write(`${head}: no such file\n`);
      code = 2;
      continue;
    }
    const t0 = performance.now();
    try {
      const r = await exportParquetFile(file, outDir, runs[i]);
      const s = ((performance.now() - t0) / 1000).toFixed(1);
      process.stderr.write(`${head} -> ${escapeControl(r.dir)}: ${r.rows.events} events, ${r.rows.spans} spans, ${r.rows.commands} commands, ${r.bytes} bytes in ${s} s\n`);
    } catch (e) {
      process.stderr.write(`${head}: ${escapeControl(e instanceof Error ? e.message : String(e))}\n`);
      code = 2;
    }
  }
  return code;
}
