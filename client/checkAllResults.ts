// The vscode-free half of "Check All Trace Files in Workspace": which files to look for, how to
// split them into CLI runs, and how to read what `npu-trace check --format json` prints.
import { MAX_QUOTED, escapeControl } from '../core/common/escape';
import { FORMATS } from '../core/formats';

/**
 * Globs of the file names the CLI checks by name alone: the names of every format of the registry
 * that `npu-trace check` checks, by lines or by bytes (a Perfetto protobuf trace). Files recognised
 * only by their content (a plain `.json` Chrome trace) are left to the CLI's own directory walk.
 */
export const CHECK_ALL_NAMES: readonly string[] = FORMATS.flatMap((f) => (f.createChecker || f.createByteChecker ? f.names : []));

/** One flat brace group (VS Code's globs do not nest them). */
export const CHECK_ALL_GLOB = `**/{${CHECK_ALL_NAMES.join(',')}}`;

/** At most this many files per run: the command line stays far below every OS's limit. */
export const BATCH_FILES = 40;
/** At most this many files are looked for, so a huge workspace cannot queue hours of work. */
export const MAX_FILES = 5000;
/** A run printing more than this is stopped (the CLI caps problems per file, so only a bug gets here). */
export const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
/** Unreadable files named in the summary; the rest are counted. */
const MAX_NAMED = 3;

/**
 * One exclude glob from the `files.exclude` and `search.exclude` settings: the keys set to `true`.
 * Keys with braces or commas cannot nest in a `{a,b}` group and conditional (`when`) entries need
 * a sibling check, so both are left out (files.exclude still applies through `findFiles`).
 */
export function excludeGlob(...settings: (Record<string, unknown> | undefined)[]): string | undefined {
  const keys = new Set<string>();
  for (const s of settings) {
    for (const [k, v] of Object.entries(s ?? {})) if (v === true && !/[{},]/.test(k)) keys.add(k);
  }
  return keys.size ? `{${[...keys].join(',')}}` : undefined;
}

const positive = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;

/** The CLI's arguments before the files: JSON output, capped as the editor caps (its `npuTrace.diagnostics` settings). */
export function checkArgs(diagnostics: { maxProblems?: unknown; maxLineBytes?: unknown }): string[] {
  const args = ['check', '--format', 'json'];
  if (positive(diagnostics.maxProblems)) args.push('--max-problems', String(diagnostics.maxProblems));
  if (positive(diagnostics.maxLineBytes)) args.push('--max-line-bytes', String(diagnostics.maxLineBytes));
  return args;
}

export function batches<T>(items: readonly T[], size = BATCH_FILES): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface JsonDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: Severity;
  code: string;
  message: string;
}

export interface FileCheck {
  file: string;
  diagnostics: JsonDiagnostic[];
}

/** A file the CLI could not read, with its reason from stderr. */
export interface Unreadable {
  file: string;
  message: string;
}

export interface BatchResult {
  checked: FileCheck[];
  unreadable: Unreadable[];
}

const SEVERITIES = new Set(['error', 'warning', 'information', 'hint']);
const isPos = (p: unknown): boolean => {
  const o = p as { line?: unknown; character?: unknown } | null;
  return typeof o === 'object' && o !== null && Number.isInteger(o.line) && Number.isInteger(o.character);
};
const isDiagnostic = (d: unknown): d is JsonDiagnostic => {
  const o = d as Partial<JsonDiagnostic> | null;
  return typeof o === 'object' && o !== null && SEVERITIES.has(o.severity as string) && typeof o.code === 'string'
    && typeof o.message === 'string' && isPos(o.range?.start) && isPos(o.range?.end);
};

/**
 * What one CLI run over `files` found: its JSON stdout per file, and every file it has no result
 * for as unreadable, with the stderr line that names it (the CLI writes `npu-trace check: <file>: <why>`).
 */
export function readBatch(files: readonly string[], stdout: string, stderr: string): BatchResult {
  let parsed: unknown = [];
  try {
    parsed = stdout.trim() ? JSON.parse(stdout) : [];
  } catch {
    parsed = [];
  }
  const checked: FileCheck[] = [];
  for (const r of Array.isArray(parsed) ? parsed : []) {
    const o = r as { file?: unknown; diagnostics?: unknown };
    if (typeof o?.file !== 'string' || !Array.isArray(o.diagnostics)) continue;
    checked.push({ file: o.file, diagnostics: o.diagnostics.filter(isDiagnostic) });
  }
  const seen = new Set(checked.map((c) => c.file));
  const lines = stderr.split('\n');
  const unreadable = files.filter((f) => !seen.has(f)).map((file) => {
    const prefix = `npu-trace check: ${file}: `;
    const line = lines.find((l) => l.startsWith(prefix));
    return { file, message: line ? line.slice(prefix.length) : NOT_CHECKED };
  });
  return { checked, unreadable };
}

/** The reason of a file left unchecked because another file of its run stopped the run. */
export const NOT_CHECKED = 'not checked';

/**
 * Runs `files` through `run` in one go; when a file stops the run (one that vanished since it was
 * found makes the CLI check nothing), each file left unchecked is run again on its own.
 */
export async function checkFiles(files: readonly string[], run: (files: string[]) => Promise<BatchResult>, stopped: () => boolean): Promise<BatchResult> {
  const r = await run([...files]);
  const again = files.length > 1 ? r.unreadable.filter((u) => u.message === NOT_CHECKED) : [];
  if (!again.length) return r;
  const out: BatchResult = { checked: r.checked, unreadable: r.unreadable.filter((u) => u.message !== NOT_CHECKED) };
  for (const u of again) {
    if (stopped()) break;
    const one = await run([u.file]);
    out.checked.push(...one.checked);
    out.unreadable.push(...one.unreadable);
  }
  return out;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The closing message: counts, then the first unreadable files named (as plain, control-free text). */
export function summaryText(checked: readonly FileCheck[], unreadable: readonly Unreadable[], skippedOpen: number, cancelled: boolean): string {
  let errors = 0;
  let warnings = 0;
  for (const c of checked) {
    for (const d of c.diagnostics) {
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
    }
  }
  const parts = [`${cancelled ? 'Cancelled after' : 'Checked'} ${plural(checked.length, 'file')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`];
  if (skippedOpen) parts.push(`${plural(skippedOpen, 'open file')} left to the editor`);
  if (unreadable.length) {
    const named = unreadable.slice(0, MAX_NAMED).map((u) => escapeControl(`${u.file} (${u.message})`.slice(0, MAX_QUOTED)));
    const more = unreadable.length > MAX_NAMED ? ` and ${unreadable.length - MAX_NAMED} more` : '';
    parts.push(`${plural(unreadable.length, 'unreadable file')}: ${named.join('; ')}${more}`);
  }
  return `${parts.join('. ')}.`;
}
