import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { KprofFormatError } from '../../core/kprof/errors';
import { namesFromJson, namesFromLines } from '../../core/kprof/names';
import { zlib } from './zlib';

// What reads a kernel-profiler buffer's files from disk, for `npu-trace kprof` and the Parquet export.

/** zlib's raw inflate, never producing more than the entry says (a zip bomb stops there). */
export const inflateRaw = (data: Uint8Array, maxBytes: number): Uint8Array => zlib().inflateRawSync(data, { maxOutputLength: Math.max(1, maxBytes) });

const MAX_NAMES_FILE = 16 << 20;

/** A names file: JSON when its name ends in .json, else one name a line; at most MAX_NAMES_FILE bytes. */
export function readNamesFile(path: string): string[] {
  if (statSync(path).size > MAX_NAMES_FILE) throw new KprofFormatError(`The names file ${path} is over ${MAX_NAMES_FILE} bytes`);
  const text = readFileSync(path, 'utf8');
  return path.toLowerCase().endsWith('.json') ? namesFromJson(text) : namesFromLines(text);
}

/** `<file>.names.json`, `<file>.names.txt`, then the same beside the name without its extension. */
export function sidecarNames(file: string): string[] | undefined {
  const stem = file.slice(0, file.length - extname(file).length);
  for (const base of [file, stem]) {
    for (const ext of ['.names.json', '.names.txt']) {
      if (existsSync(base + ext)) return readNamesFile(base + ext);
    }
  }
  return undefined;
}
