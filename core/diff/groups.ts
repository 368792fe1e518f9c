import { clip } from '../common/clip';
import type { DiffGroup } from './types';

/** Groups of one kind past this many go into one `(other)` group: a file can name any number. */
export const MAX_DIFF_GROUPS = 10_000;
export const OTHER_KEY = '(other)';
/** A key is cut to this many characters (a file's names can be of any length). */
export const MAX_KEY_CHARS = 200;

/** The groups of one kind as a format's reader collects them: capped in number and key length. */
export class GroupSet {
  private readonly groups = new Map<string, { durations: number[]; firstLine: number | undefined }>();
  constructor(readonly kind: string) {}

  add(rawKey: string, duration: number, line?: number): void {
    this.at(rawKey, line).durations.push(duration);
  }

  /** Makes the group exist (and its first line known) without an item. */
  seen(rawKey: string, line?: number): void {
    this.at(rawKey, line);
  }

  firstLine(key: string): number | undefined {
    return this.groups.get(key)?.firstLine;
  }

  list(): DiffGroup[] {
    return [...this.groups].map(([key, g]) => ({ kind: this.kind, key, durations: g.durations, ...(g.firstLine === undefined ? {} : { firstLine: g.firstLine }) }));
  }

  private at(rawKey: string, line: number | undefined) {
    let key = clip(rawKey, MAX_KEY_CHARS);
    let g = this.groups.get(key);
    if (!g) {
      if (this.groups.size >= MAX_DIFF_GROUPS) key = OTHER_KEY;
      g = this.groups.get(key);
      if (!g) this.groups.set(key, (g = { durations: [], firstLine: line }));
    }
    return g;
  }
}
