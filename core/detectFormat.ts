import { baseName, FileHead, HEAD_BYTES, nameMatches } from './fileHead';
import type { FormatDescriptor } from './formatDescriptor';
import { FORMATS } from './formats';
import type { BuilderOptions, TimelineBuilder } from './timeline/builder';
import type { TimelineModel } from './timeline/model';

/** The format a file's name alone says (`*.cmdq.json`, `*.trace.jsonl` …), whatever it holds. */
export function formatByName(name: string): FormatDescriptor | undefined {
  const base = baseName(name);
  return FORMATS.find((f) => f.names.some((g) => nameMatches(g, base)));
}

/**
 * What a file is: what its name says, else what its head says (its first MB, gunzipped, as text,
 * with its bytes for a binary format; see `FileHead`). The one rule of the command line, the server, the client, Show Timeline,
 * Check All and export. Pure: the caller reads the head.
 */
export function detectFormat(name: string, head: string | FileHead = ''): FormatDescriptor | undefined {
  const byName = formatByName(name);
  if (byName) return byName;
  const base = baseName(name);
  const h = head instanceof FileHead ? head : new FileHead(head);
  return FORMATS.find((f) => f.detect?.(base, h));
}

/** A new timeline builder for a file, by `detectFormat`; undefined when its format has no timeline (or it has none). */
export function timelineBuilderOf(name: string, head: string | FileHead, opts?: BuilderOptions): TimelineBuilder | undefined {
  return detectFormat(name, head)?.timeline?.(opts);
}

/** The text of lines up to about `HEAD_BYTES` characters, as a head for detection (an open document, a test's lines). */
export function headOfLines(lines: readonly string[], limit = HEAD_BYTES): string {
  const parts: string[] = [];
  // A one-line document of 200 MB gives its first MB, not a copy of itself.
  for (let i = 0, n = 0; i < lines.length && n < limit; n += parts[i].length + 1, i++) parts.push(lines[i].slice(0, limit - n));
  return parts.join('\n');
}

/** Builds a whole model from lines already in memory (an open document, a test fixture). */
export function buildTimeline(fileName: string, lines: readonly string[]): TimelineModel | undefined {
  const b = timelineBuilderOf(fileName, headOfLines(lines));
  if (!b) return undefined;
  for (let i = 0; i < lines.length; i++) b.addLine(lines[i], i);
  return b.finish();
}
