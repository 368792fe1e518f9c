import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Diagnostic } from '../core/common/diagnostic';
import { defaultDiagnosticSettings, finalizeDiagnostics } from '../core/common/settings';
import { formatFor } from '../core/formats';
import { forEachLine, forEachLineBytes, forEachLineIn } from './lines';

interface FileResult {
  file: string;
  diagnostics: Diagnostic[];
  hasError: boolean;
}

export class UsageError extends Error {}

function parseArgs(args: string[]): { format: 'text' | 'json'; max: number; files: string[] } {
  let format: 'text' | 'json' = 'text';
  let max = defaultDiagnosticSettings.maxProblems;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--format') {
      const v = args[++i];
      if (v !== 'text' && v !== 'json') throw new UsageError(`--format takes text or json, got ${v ?? 'nothing'}`);
      format = v;
    } else if (a.startsWith('--format=')) {
      const v = a.slice(9);
      if (v !== 'text' && v !== 'json') throw new UsageError(`--format takes text or json, got ${v}`);
      format = v;
    } else if (a === '--max-problems') {
      const v = Number(args[++i]);
      if (!Number.isInteger(v) || v < 1) throw new UsageError('--max-problems takes a positive whole number');
      max = v;
    } else if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option ${a}`);
    } else files.push(a);
  }
  if (files.length === 0) throw new UsageError('no files given');
  return { format, max, files };
}

function firstLine(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    let text = buf.subarray(0, n);
    if (/\.gz$/i.test(file)) {
      try {
        text = gunzipSync(text, { finishFlush: 2 });
      } catch {
        return '';
      }
    }
    return text.toString('utf8').split(/\r?\n|\r/)[0];
  } finally {
    closeSync(fd);
  }
}

export async function checkFile(file: string, max: number): Promise<FileResult> {
  const fmt = formatFor(file, firstLine(file));
  if (!fmt) throw new UsageError(`${file}: unknown file type (expected .trace.jsonl, .cmdq.json, a systrace, ...)`);
  const checker = fmt.createChecker();
  const addBytes = checker.addBytes?.bind(checker);
  const addIn = checker.addIn?.bind(checker);
  if (addBytes) await forEachLineBytes(file, addBytes, (line, n) => checker.add(line, n));
  else if (addIn) await forEachLineIn(file, addIn);
  else await forEachLine(file, (line, n) => checker.add(line, n));
  const settings = { ...defaultDiagnosticSettings, maxProblems: max };
  if (checker.finishCapped) return { file, ...checker.finishCapped(settings) };
  const all = checker.finish();
  // The exit status counts every error, also those the cap leaves out of the output: an error
  // after 1000 warnings must still fail a CI run.
  return { file, diagnostics: finalizeDiagnostics(all, settings), hasError: all.some((d) => d.severity === 'error') };
}

/** One diagnostic per output line, even when a trace's own ERROR msg holds line breaks. */
function oneLine(s: string): string {
  return s.replace(/\r\n|\r|\n/g, ' ');
}

export async function check(args: string[]): Promise<number> {
  let opts;
  try {
    opts = parseArgs(args);
    for (const f of opts.files) {
      const st = statSync(f, { throwIfNoEntry: false });
      if (!st) throw new UsageError(`${f}: no such file`);
      if (!st.isFile()) throw new UsageError(`${f}: not a file${st.isDirectory() ? ' (a directory)' : ''}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`npu-trace check: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const results: FileResult[] = [];
  for (const f of opts.files) {
    try {
      results.push(await checkFile(f, opts.max));
    } catch (e) {
      // Name the file: "incorrect header check" alone does not say which .gz is broken.
      const msg = e instanceof Error ? e.message : String(e);
      process.stderr.write(`npu-trace check: ${e instanceof UsageError ? msg : `${f}: ${msg}`}\n`);
      return 2;
    }
  }
  const out: string[] = [];
  if (opts.format === 'json') {
    out.push(JSON.stringify(results.map((r) => ({ file: r.file, diagnostics: r.diagnostics.map((d) => ({ range: d.range, severity: d.severity, code: d.code, message: d.message })) })), null, 2));
  } else {
    for (const r of results) {
      for (const d of r.diagnostics) out.push(`${r.file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code} ${oneLine(d.message)}`);
    }
  }
  if (out.length) process.stdout.write(out.join('\n') + '\n');
  return results.some((r) => r.hasError) ? 1 : 0;
}
