import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join, normalize } from 'node:path';

/** An argument that names nothing to check: the run stops before checking (exit 2). */
export class TargetError extends Error {}

/** Deeper than this a walk stops: no real tree of traces is, and a bind-mount loop would be endless. */
const MAX_DEPTH = 64;

/**
 * Whether `name` matches one path segment of a glob: `*` any run of characters, `?` one, the
 * rest literally. Two cursors and the last `*` to fall back to (no regex): at most
 * pattern × name steps whatever the input.
 */
export function matchSegment(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === '?' || (pattern[p] !== '*' && pattern[p] === name[n]))) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

export const isGlob = (arg: string) => /[*?]/.test(arg);

/** Hidden entries and installed packages are not walked into, as most linters do. */
const skipped = (name: string) => name.startsWith('.') || name === 'node_modules';

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** A regular file, or a link to one; links to directories are not followed (they may loop). */
function isFile(path: string, e: Dirent): boolean {
  if (e.isFile()) return true;
  return e.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

/** Every file under `dir` that `pick` takes, in name order, depth first. */
export function walkDirectory(dir: string, pick: (file: string) => boolean, out: string[], depth = 0): void {
  if (depth > MAX_DEPTH) return;
  for (const e of entries(dir)) {
    if (skipped(e.name)) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) walkDirectory(path, pick, out, depth + 1);
    else if (isFile(path, e) && pick(path)) out.push(path);
  }
}

/**
 * The files a glob matches: the literal directories it starts with, then a walk that keeps the set
 * of pattern segments each entry could be at (`**`: zero or more directories), so a pattern with
 * many `**` costs segments × entries, not a search per split.
 */
export function matchGlob(glob: string, pick: (file: string) => boolean, out: string[]): void {
  const parts = glob.split('/');
  let j = 0;
  while (j < parts.length && !isGlob(parts[j])) j++;
  const base = j === 0 ? '.' : parts.slice(0, j).join('/') || '/';
  const pattern = parts.slice(j).filter((p) => p !== '');
  const close = (states: Set<number>) => {
    for (const s of states) if (pattern[s] === '**') states.add(s + 1);
    return states;
  };
  const walk = (dir: string, states: Set<number>, depth: number) => {
    if (depth > MAX_DEPTH) return;
    for (const e of entries(dir)) {
      if (skipped(e.name)) continue;
      const next = new Set<number>();
      for (const s of states) {
        if (pattern[s] === '**') next.add(s);
        else if (s < pattern.length && matchSegment(pattern[s], e.name)) next.add(s + 1);
      }
      if (next.size === 0) continue;
      close(next);
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path, next, depth + 1);
      else if (next.has(pattern.length) && isFile(path, e) && pick(path)) out.push(path);
    }
  };
  walk(base, close(new Set([0])), 0);
}

/**
 * The files the arguments name: a file as it is (its type is checked later, so an unknown one is
 * reported), a directory walked for the files `pick` takes, a glob (`*`, `?`, `**`) matched. Each
 * file once, in argument order. An argument naming nothing is a TargetError.
 */
export function expandTargets(args: readonly string[], pick: (file: string) => boolean): { files: string[]; walked: boolean } {
  const seen = new Set<string>();
  const files: string[] = [];
  let walked = false;
  for (const arg of args) {
    const st = statSync(arg, { throwIfNoEntry: false });
    const found: string[] = [];
    if (st?.isFile()) found.push(arg);
    else if (st?.isDirectory()) {
      walked = true;
      walkDirectory(arg, pick, found);
      if (!found.length) throw new TargetError(`${arg}: no trace, CMDQ, systrace, InferScope or Chrome trace file in this directory`);
    } else if (!st && isGlob(arg)) {
      walked = true;
      matchGlob(arg, pick, found);
      if (!found.length) throw new TargetError(`${arg}: matches no trace, CMDQ, systrace, InferScope or Chrome trace file`);
    } else throw new TargetError(st ? `${arg}: not a file or directory` : `${arg}: no such file`);
    for (const f of found) {
      // `./a.trace.jsonl` and the `a.trace.jsonl` a walk of `.` finds are one file.
      const key = normalize(f);
      if (!seen.has(key)) files.push(f);
      seen.add(key);
    }
  }
  return { files, walked };
}
