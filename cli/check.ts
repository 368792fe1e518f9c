import { readFileSync, statSync } from 'node:fs';
import { parseArgs as parseNodeArgs } from 'node:util';
import type { Diagnostic } from '../core/common/diagnostic';
import { escapeControl } from '../core/common/escape';
import { DEFAULT_MAX_LINE_BYTES, lineTooLong } from '../core/common/lines';
import { checkResult, defaultDiagnosticSettings, type DiagnosticSettings } from '../core/common/settings';
import { WholeOrStreamed } from '../core/common/wholeOrStreamed';
import type { CheckResult, ChunkChecker, FormatDescriptor, LineChecker } from '../core/formatDescriptor';
import { formatByName } from '../core/detectFormat';
import { traceFormat } from '../core/trace/descriptor';
import { chromeFormat } from '../core/chrome/descriptor';
import { fileTooLarge, gzipEndProblems, withFileProblems } from '../core/common/fileProblems';
import type { GzipEnd } from '../node/io/gunzip';
import { formatOfFile } from '../node/io/firstLine';
import { forEachLine, forEachLineBytes, forEachLineIn, forEachText, textSizeHint, type ReadOptions } from '../node/io/lines';
import { checkBytes } from './byteFormats';
import { depthBounded } from './jsonLines';
import { checkTraceInParallel } from './parallelCheck';
import { checkChromeInParallel } from './parallelChrome';
import { githubAnnotations } from './github';
import { sarifLog, type FileResult, type RunFailure } from './sarif';
import { expandTargets, TargetError } from './targets';

export class UsageError extends Error {}

/**
 * A format read as one document (CMDQ) is held whole; past this size it is not parsed. The CLI
 * stays within about 500 MB on any input, and the largest queues seen are tens of MB.
 */
export const MAX_DOCUMENT_BYTES = 64 << 20;

export interface CheckOptions {
  maxProblems: number;
  maxLineBytes: number;
}

export const CHECK_DEFAULTS: CheckOptions = { maxProblems: defaultDiagnosticSettings.maxProblems, maxLineBytes: DEFAULT_MAX_LINE_BYTES };

function positiveInt(name: string, v: string | undefined): number {
  const n = Number(v);
  if (v === undefined || v.trim() === '' || !Number.isInteger(n) || n < 1) throw new UsageError(`${name} takes a positive whole number, got ${v ?? 'nothing'}`);
  return n;
}

const FORMATS = ['text', 'json', 'sarif', 'github'] as const;
type OutputFormat = (typeof FORMATS)[number];
const FORMAT_LIST = 'text, json, sarif or github';

const FAIL_ON = ['error', 'warning', 'information'] as const;
type FailOn = (typeof FAIL_ON)[number];

function oneOf<T extends string>(name: string, list: readonly T[], words: string, v: string | undefined): T {
  if (v === undefined || !(list as readonly string[]).includes(v)) throw new UsageError(`${name} takes ${words}, got ${v ?? 'nothing'}`);
  return v as T;
}

function parseArgs(args: string[]): { format: OutputFormat; failOn: FailOn; opts: CheckOptions; files: string[] } {
  let parsed;
  try {
    parsed = parseNodeArgs({
      args,
      allowPositionals: true,
      options: { format: { type: 'string' }, 'fail-on': { type: 'string' }, 'max-problems': { type: 'string' }, 'max-line-bytes': { type: 'string' } },
    });
  } catch (e) {
    // parseArgs's own words are long; say it as the rest of the CLI does.
    const msg = e instanceof Error ? e.message : String(e);
    const unknown = /^Unknown option '([^']*)'/.exec(msg);
    if (unknown) throw new UsageError(`unknown option ${unknown[1]}`);
    const missing = /^Option '(--[a-z-]+)/.exec(msg);
    if (missing?.[1] === '--format') oneOf('--format', FORMATS, FORMAT_LIST, undefined);
    if (missing?.[1] === '--fail-on') oneOf('--fail-on', FAIL_ON, 'error, warning or information', undefined);
    if (missing) positiveInt(missing[1], undefined);
    throw new UsageError(msg.split('\n')[0]);
  }
  const v = parsed.values;
  const files = parsed.positionals;
  const format = v.format === undefined ? 'text' : oneOf('--format', FORMATS, FORMAT_LIST, v.format);
  const failOn = v['fail-on'] === undefined ? 'error' : oneOf('--fail-on', FAIL_ON, 'error, warning or information', v['fail-on']);
  if (files.length === 0) throw new UsageError('no files given');
  return {
    format,
    failOn,
    opts: {
      maxProblems: v['max-problems'] === undefined ? CHECK_DEFAULTS.maxProblems : positiveInt('--max-problems', v['max-problems']),
      maxLineBytes: v['max-line-bytes'] === undefined ? CHECK_DEFAULTS.maxLineBytes : positiveInt('--max-line-bytes', v['max-line-bytes']),
    },
    files,
  };
}

/** A checker of one document held whole, that gives up past MAX_DOCUMENT_BYTES instead of holding more. */
function bounded(checker: LineChecker, limit: number): LineChecker & { skipped(n: number, length: number): void; tooLarge(): Diagnostic | undefined } {
  let size = 0;
  let lines = 0;
  return {
    add: (line, n) => {
      lines = n + 1;
      size += line.length + 1;
      if (size <= limit) checker.add(line, n);
    },
    // A line the reader did not hand on, being longer than the whole limit.
    skipped: (n, length) => {
      lines = n + 1;
      size += length + 1;
    },
    // A problem of the file (not checked at all), which `checkFile` adds as it adds every format's.
    tooLarge: () => (size > limit ? fileTooLarge(lines, size, limit) : undefined),
    finish: () => (size > limit ? [] : checker.finish()),
    finishCapped: (settings, extra) => (size > limit ? checkResult([...extra], settings) : checker.finishCapped(settings, extra)),
  };
}

/**
 * Checks a file of any format. The problems of the file itself (FILE_CODES: a cut `.gz`, bytes
 * after it, a file too large to check) are only found by the paths below; they join the result
 * here, in one place, alike for every format (issue #29: a Chrome checker once dropped them).
 */
export async function checkFile(file: string, opts: CheckOptions): Promise<FileResult> {
  const settings = { ...defaultDiagnosticSettings, maxProblems: opts.maxProblems };
  const fileProblems: Diagnostic[] = [];
  const r = await checkContent(file, opts, settings, fileProblems);
  return { file, ...withFileProblems(r, fileProblems, settings) };
}

async function checkContent(file: string, opts: CheckOptions, settings: DiagnosticSettings, fileProblems: Diagnostic[]): Promise<CheckResult> {
  const detected = formatOfFile(file);
  // A binary format checked from its bytes (a Perfetto trace): no lines.
  if (detected?.createByteChecker) return checkBytes(file, detected, opts.maxProblems, fileProblems);
  const fmt = checkedFormat(detected);
  if (!fmt) throw new UsageError(`${file}: unknown file type (expected .trace.jsonl, .cmdq.json, a systrace, ...)`);
  // A document format read in one piece: one read and one decode instead of a string per line.
  const maxDocument = fmt.maxDocumentBytes ?? MAX_DOCUMENT_BYTES;
  if (fmt.checkDocument && !/\.gz$/i.test(file) && statSync(file).size <= maxDocument) {
    // Read whole, then decoded: readFileSync(file, 'utf8') took about twice the CPU (and more wall time) on node 20.
    const text = readFileSync(file).toString('utf8');
    // Columns as in the editor: VS Code drops a leading BOM.
    return fmt.checkDocument(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, settings);
  }
  // A big Chrome trace is read in parts on every core (parallelChrome.ts); it says the same as the one pass.
  const parts = fmt === chromeFormat ? await checkChromeInParallel(file, settings) : undefined;
  if (parts) return parts;
  // A big or gzipped document read in pieces, not lines: one line of it may pass what one string holds.
  if (fmt.createChunkChecker) return checkInPieces(file, () => fmt.createChunkChecker!(settings), fmt.checkDocument, maxDocument, settings, fileProblems);
  // A big plain trace is split among threads (parallelCheck.ts); it says the same as the one pass below.
  const parallel = fmt === traceFormat ? await checkTraceInParallel(file, opts) : undefined;
  if (parallel) return parallel.lines.finishCapped(settings, parallel.found);
  const found: Diagnostic[] = [];
  const code = fmt.lineTooLong;
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  const made = fmt.createChecker({ maxProblems: opts.maxProblems });
  const streamed = fmt.streamedLineBytes;
  const whole = code || streamed ? undefined : bounded(made, maxDocument);
  const checker = whole ?? (fmt.lineTooDeep ? depthBounded(made, fmt.lineTooDeep, found) : made);
  const read: ReadOptions = whole
    ? { maxLineBytes: maxDocument, gzip, onTooLong: (n, len) => whole.skipped(n, len) }
    : streamed ? { maxLineBytes: streamed, gzip, onTooLong: (n, len) => fileProblems.push(fileTooLarge(n + 1, len, streamed)) }
      : { maxLineBytes: opts.maxLineBytes, gzip, onTooLong: (n, len) => found.push(lineTooLong(code!, n, len, opts.maxLineBytes, 'bytes')) };
  const addBytes = checker.addBytes?.bind(checker);
  const addIn = checker.addIn?.bind(checker);
  let count;
  if (addBytes) count = await forEachLineBytes(file, addBytes, (line, n) => checker.add(line, n), read);
  else if (addIn) count = await forEachLineIn(file, addIn, read);
  else count = await forEachLine(file, (line, n) => checker.add(line, n), undefined, read);
  fileProblems.push(...gzipEndProblems(gzip, count - 1));
  const tooLarge = whole?.tooLarge();
  if (tooLarge) fileProblems.push(tooLarge);
  return checker.finishCapped(settings, found);
}

/**
 * A document read in decoded pieces (gunzipped as they come for a `.gz`): checked whole when it is
 * within `maxDocument`, else by the streamed checker, from the first piece when the size on disk or
 * in the gzip trailer already says so (`WholeOrStreamed`).
 */
async function checkInPieces(file: string, streamed: () => ChunkChecker, whole: FormatDescriptor['checkDocument'], maxDocument: number, settings: DiagnosticSettings, fileProblems: Diagnostic[]): Promise<CheckResult> {
  const input = new WholeOrStreamed(whole ? maxDocument : -1, streamed);
  input.expect(textSizeHint(file));
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  // Line breaks, for where a cut gzip stream ends (a compact file is one line); a plain file has no such end.
  let breaks = 0;
  const gz = /\.gz$/i.test(file);
  await forEachText(file, (t) => {
    input.feed(t);
    if (gz) for (let i = t.indexOf('\n'); i >= 0; i = t.indexOf('\n', i + 1)) breaks++;
  }, { gzip });
  fileProblems.push(...gzipEndProblems(gzip, breaks));
  return input.stream ? input.stream.finish(settings, gzip.truncated) : whole!(input.text()!, settings);
}

/**
 * One diagnostic per output line, and nothing a terminal would act on: a trace's own ERROR msg (or
 * a file's name) may hold line breaks, escape sequences or bidi controls that hide or forge CI log
 * lines. A line break is shown as `\x0a`, not a space, so the name printed is the name there is.
 */
const printable = escapeControl;

const RANK: Record<Diagnostic['severity'], number> = { error: 3, warning: 2, information: 1, hint: 0 };

/**
 * Whether a file has a problem at or above `failOn`. Errors beyond the --max-problems cap count
 * (`hasError`); other hidden problems are not classified, so under `warning` a capped list fails.
 */
export function fails(r: FileResult, failOn: FailOn): boolean {
  if (r.hasError) return true;
  return r.diagnostics.some((d) => (d.code === 'too-many-problems' ? failOn !== 'error' : RANK[d.severity] >= RANK[failOn]));
}

/** The format when `check` checks it (a kprof buffer has its own command). */
function checkedFormat(f: FormatDescriptor | undefined): (FormatDescriptor & Required<Pick<FormatDescriptor, 'createChecker'>>) | undefined {
  return f?.createChecker ? f as FormatDescriptor & Required<Pick<FormatDescriptor, 'createChecker'>> : undefined;
}

/** A file a directory walk or a glob takes: one of the checked formats, by name or else by its head (`detectFormat`). */
function known(file: string): boolean {
  const byName = formatByName(file);
  if (byName) return checkedFormat(byName) !== undefined || !!byName.createByteChecker;
  try {
    const f = formatOfFile(file);
    return checkedFormat(f) !== undefined || !!f?.createByteChecker;
  } catch {
    return false;
  }
}

function summary(files: number, results: readonly FileResult[], failures: number): string {
  const n: Record<Diagnostic['severity'], number> = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const r of results) for (const d of r.diagnostics) n[d.severity]++;
  const parts = [`${files} file${files === 1 ? '' : 's'}`, `${n.error} error${n.error === 1 ? '' : 's'}`, `${n.warning} warning${n.warning === 1 ? '' : 's'}`, `${n.information} information`];
  if (n.hint) parts.push(`${n.hint} hint${n.hint === 1 ? '' : 's'}`);
  if (failures) parts.push(`${failures} unreadable`);
  return `npu-trace check: ${parts.join(', ')}`;
}

/**
 * Exit status: 2 when an argument is unusable or a file could not be read (the others are still
 * checked and shown), else 1 when a file has a problem at or above --fail-on, else 0.
 */
export async function check(args: string[]): Promise<number> {
  let parsed;
  let targets;
  try {
    parsed = parseArgs(args);
    targets = expandTargets(parsed.files, known);
  } catch (e) {
    if (e instanceof UsageError || e instanceof TargetError) {
      process.stderr.write(`npu-trace check: ${printable(e.message)}\n`);
      return 2;
    }
    throw e;
  }
  const results: FileResult[] = [];
  const failures: RunFailure[] = [];
  for (const f of targets.files) {
    try {
      results.push(await checkFile(f, parsed.opts));
    } catch (e) {
      // Name the file: "incorrect header check" alone does not say which .gz is broken.
      const msg = e instanceof Error ? e.message : String(e);
      const message = e instanceof UsageError ? msg : `${f}: ${msg}`;
      failures.push({ file: f, message });
      process.stderr.write(`npu-trace check: ${printable(message)}\n`);
    }
  }
  const out: string[] = [];
  if (parsed.format === 'json') {
    out.push(JSON.stringify(results.map((r) => ({ file: r.file, diagnostics: r.diagnostics.map((d) => ({ range: d.range, severity: d.severity, code: d.code, message: d.message })) })), null, 2));
  } else if (parsed.format === 'sarif') {
    out.push(JSON.stringify(sarifLog(results, failures), null, 2));
  } else if (parsed.format === 'github') {
    out.push(...githubAnnotations(results, failures));
  } else {
    for (const r of results) {
      const file = printable(r.file);
      for (const d of r.diagnostics) out.push(`${file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${printable(d.code)} ${printable(d.message)}`);
    }
  }
  if (out.length) process.stdout.write(out.join('\n') + '\n');
  // On stderr, so stdout stays in its one format; only where the files were not all named.
  if (targets.walked) process.stderr.write(`${summary(targets.files.length, results, failures.length)}\n`);
  if (failures.length) return 2;
  const failOn = parsed.failOn;
  return results.some((r) => fails(r, failOn)) ? 1 : 0;
}
