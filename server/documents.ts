import type { Position, Range, TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { DEFAULT_MAX_LINE_BYTES } from '../core/common/lines';
import { FORMATS } from '../core/formats';
import type { FormatService, LineEdit } from './formatService';
import { LineDocument } from './lineDocument';
import { withLineLimit } from './lineLimit';
import { applyToText, countLines, MAX_MODEL_LINES } from './tooLarge';

export interface OpenDocument {
  doc: LineDocument;
  service: FormatService | undefined;
  /** The model of `doc` once `get` has brought it up to date; undefined when the format failed. */
  model: unknown;
  /** Line edits applied to `doc` since the model was last updated; 'all' when it must be parsed whole. */
  pending: LineEdit[] | 'all' | undefined;
  /** How many of the pending edits insert or delete lines. */
  shifts: number;
  /** What the format threw on the current text, when it did (published as a diagnostic). */
  failure: unknown;
  /**
   * A document over MAX_MODEL_LINES: its text kept whole (`doc` is then empty), no model, one
   * diagnostic. An edit that brings it under the limit makes it an ordinary document again.
   */
  tooLarge?: { text: string; lines: number };
}

/**
 * Past this many edits waiting for one model update, the document is parsed whole instead: it
 * bounds the list a storm of edits can grow.
 */
export const MAX_PENDING_EDITS = 4096;
/**
 * The same for edits that insert or delete lines: a format renumbers what follows each of them
 * (5–9 ms per edit on a 100k-line trace), so a few dozen cost more than one parse.
 */
export const MAX_PENDING_SHIFTS = 64;

/**
 * Keeps each open document with its parsed model. Applying a change only updates the lines
 * (cheap); the model is brought up to date lazily, by `get`, with every edit since the last time
 * at once: a burst of queued changes costs one update of the model, not one per change.
 */
export class DocumentStore {
  private readonly docs = new Map<string, OpenDocument>();

  /**
   * The service of a document's format (its language id is the format's id); for a line-based
   * format, seeing only lines within the line limit.
   */
  serviceFor(languageId: string): FormatService | undefined {
    const s = this.services.find((x) => x.formatId === languageId);
    const f = FORMATS.find((x) => x.id === languageId);
    return s && f?.lineTooLong ? withLineLimit(s, { long: f.lineTooLong, deep: f.lineTooDeep }, this.maxLine) : s;
  }

  /**
   * `onError` hears of a format that failed: the document stays open, without a model, instead of
   * killing the server. `maxLine` is the current line limit (a setting), read at each parse.
   */
  constructor(private readonly services: readonly FormatService[], private readonly onError: (uri: string, err: unknown) => void = () => {},
    private readonly maxLine: () => number = () => DEFAULT_MAX_LINE_BYTES) {}

  open(uri: string, languageId: string, version: number, text: string): OpenDocument {
    const entry: OpenDocument = { doc: LineDocument.create(uri, languageId, version, ''), service: this.serviceFor(languageId), model: undefined, pending: 'all', shifts: 0, failure: undefined };
    this.setText(entry, typeof text === 'string' ? text : '');
    this.docs.set(uri, entry);
    return entry;
  }

  /** The whole text of a document: split into lines and modelled, or kept whole when it has too many lines. */
  private setText(entry: OpenDocument, text: string): void {
    const { uri, languageId, version } = entry.doc;
    const lines = countLines(text);
    entry.model = undefined;
    entry.failure = undefined;
    entry.shifts = 0;
    if (lines > MAX_MODEL_LINES) {
      entry.doc = LineDocument.create(uri, languageId, version, '');
      entry.tooLarge = { text, lines };
      entry.pending = undefined;
      return;
    }
    entry.doc = LineDocument.create(uri, languageId, version, text);
    entry.tooLarge = undefined;
    entry.pending = 'all';
  }

  /** Applies the changes to the text only; the model follows on the next `get`. */
  change(uri: string, version: number, changes: readonly TextDocumentContentChangeEvent[]): OpenDocument | undefined {
    const entry = this.docs.get(uri);
    if (!entry) return undefined;
    entry.doc.version = version;
    const list = Array.isArray(changes) ? changes : [];
    // A document kept whole is edited as a text; as is one a change would take over the limit.
    if (entry.tooLarge) {
      this.setText(entry, applyToText(entry.tooLarge.text, list));
      return entry;
    }
    // One change at a time: each range is normalised against the text the previous one left.
    for (const [k, ch] of list.entries()) {
      if (typeof ch?.text !== 'string') continue;
      const removed = 'range' in ch && ch.range ? Math.max(0, Math.abs(ch.range.end.line - ch.range.start.line)) : entry.doc.lineCount - 1;
      if (entry.doc.lineCount - removed + countLines(ch.text) - 1 > MAX_MODEL_LINES) {
        this.setText(entry, applyToText(entry.doc.getText(), list.slice(k)));
        return entry;
      }
      const c = 'range' in ch && ch.range ? { range: wellFormed(ch.range, entry.doc), text: ch.text } : { text: ch.text };
      const edits = entry.doc.apply([c], version);
      if (!edits || entry.pending === 'all') {
        entry.pending = 'all';
        continue;
      }
      entry.pending ??= [];
      for (const e of edits) if (e.newCount !== e.end - e.start) entry.shifts++;
      if (entry.pending.length + edits.length > MAX_PENDING_EDITS || entry.shifts > MAX_PENDING_SHIFTS) entry.pending = 'all';
      else entry.pending.push(...edits);
    }
    return entry;
  }

  /** The document with its model brought up to date with the latest text. */
  get(uri: string): OpenDocument | undefined {
    const entry = this.docs.get(uri);
    if (entry) this.sync(uri, entry);
    return entry;
  }

  private sync(uri: string, entry: OpenDocument): void {
    const s = entry.service;
    const edits = entry.pending;
    if (!s || edits === undefined || entry.tooLarge) return;
    entry.pending = undefined;
    entry.shifts = 0;
    if (edits !== 'all' && s.update && entry.model !== undefined) {
      try {
        entry.model = s.update(entry.model, entry.doc, edits);
        entry.failure = undefined;
        return;
      } catch (err) {
        // An incremental update that failed is retried as a full parse before giving up.
        this.onError(uri, err);
      }
    }
    try {
      entry.model = s.parse(entry.doc);
      entry.failure = undefined;
    } catch (err) {
      this.onError(uri, err);
      entry.model = undefined;
      entry.failure = err;
    }
  }

  close(uri: string): void {
    this.docs.delete(uri);
  }

  /** Every open document, as it is (models not brought up to date). */
  all(): IterableIterator<OpenDocument> {
    return this.docs.values();
  }
}

/**
 * The range as `vscode-languageserver-textdocument` reads it, so the server's text stays the
 * editor's: a start after the end is swapped, then each position is clamped into the document
 * (a line past the end means the end of the text, a negative one its start).
 */
export function wellFormed(r: Range, doc: { lineCount: number; line(i: number): string }): Range {
  const reversed = r.start.line > r.end.line || (r.start.line === r.end.line && r.start.character > r.end.character);
  const [s, e] = reversed ? [r.end, r.start] : [r.start, r.end];
  return { start: clampPosition(s, doc), end: clampPosition(e, doc) };
}

function clampPosition(p: Position, doc: { lineCount: number; line(i: number): string }): Position {
  const last = doc.lineCount - 1;
  const line = Number.isFinite(p.line) ? Math.floor(p.line) : 0;
  if (line > last) return { line: last, character: doc.line(last).length };
  if (line < 0) return { line: 0, character: 0 };
  const character = Number.isFinite(p.character) ? Math.max(0, Math.min(p.character, doc.line(line).length)) : 0;
  return { line, character: Math.floor(character) };
}
