// What the CLI writes to is named on the command line, but a path can be a trap set by whoever
// controls the directory: a symbolic link `out.json -> ~/.bashrc` turns an export into an
// overwrite of its target, and a run id with a line break forges lines in logs and file listings.
// Every command that writes asks here before it opens anything; `--force` says the user meant it.
import { lstatSync, readlinkSync } from 'node:fs';
import { escapeControl } from '../core/common/escape';

/** The option every writing command takes to write through a symbolic link or keep an odd run id. */
export const FORCE_OPTION = { force: { type: 'boolean' } } as const;

/**
 * Why writing to `path` (given as `option`) is refused, or undefined when it may be written: a
 * symbolic link (even one that points nowhere yet: the write would create its target) is refused
 * unless `force`. `-` (stdout) is never refused.
 */
export function outputRefusal(option: string, path: string, force: boolean | undefined): string | undefined {
  if (force || path === '-') return undefined;
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st?.isSymbolicLink()) return undefined;
  let target = '?';
  try {
    target = readlinkSync(path);
  } catch { /* removed meanwhile: still refused */ }
  return `${option} ${escapeControl(path)} is a symbolic link (to ${escapeControl(target)}): writing would replace what it points to; give another path, or --force to write through the link`;
}

/**
 * Why a run id is refused, or undefined: it names a directory and is printed in logs, so a control
 * or bidirectional-text character (a line break forges a log line) is refused unless `force`.
 */
export function runIdRefusal(runId: string, force: boolean | undefined): string | undefined {
  if (force) return undefined;
  const shown = escapeControl(runId);
  return shown === runId ? undefined : `--run-id ${shown} holds a control or bidirectional-text character; give a plain name, or --force to keep it`;
}
