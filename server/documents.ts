import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { DEFAULT_MAX_LINE_BYTES } from '../core/common/lines';
import { FORMATS } from '../core/formats';
import type { FormatService } from './format';
import { LineDocument } from './lineDocument';
import { withLineLimit } from './lineLimit';

export interface OpenDocument {
  doc: LineDocument;
  service: FormatService | undefined;
  model: unknown;
}

/**
 * Keeps each open document with its parsed model. Incremental changes become line edits so a
 * format can re-parse only the lines an edit touched; the model is parsed once per version.
 */
export class DocumentStore {
  private readonly docs = new Map<string, OpenDocument>();

  /** The service of a language; for a line-based format, seeing only lines within the line limit. */
  serviceFor(languageId: string): FormatService | undefined {
    const s = this.services.find((x) => x.languageId === languageId);
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
    const doc = LineDocument.create(uri, languageId, version, typeof text === 'string' ? text : '');
    const service = this.serviceFor(languageId);
    const entry: OpenDocument = { doc, service, model: this.parse(uri, service, doc) };
    this.docs.set(uri, entry);
    return entry;
  }

  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): OpenDocument | undefined {
    const entry = this.docs.get(uri);
    if (!entry) return undefined;
    const edits = entry.doc.apply(changes, version);
    const s = entry.service;
    if (!s) return entry;
    try {
      entry.model = edits && s.update && entry.model !== undefined ? s.update(entry.model, entry.doc, edits) : s.parse(entry.doc);
    } catch (err) {
      // An incremental update that failed is retried as a full parse before giving up.
      this.onError(uri, err);
      entry.model = this.parse(uri, s, entry.doc);
    }
    return entry;
  }

  private parse(uri: string, s: FormatService | undefined, doc: LineDocument): unknown {
    if (!s) return undefined;
    try {
      return s.parse(doc);
    } catch (err) {
      this.onError(uri, err);
      return undefined;
    }
  }

  close(uri: string): void {
    this.docs.delete(uri);
  }

  get(uri: string): OpenDocument | undefined {
    return this.docs.get(uri);
  }

  all(): IterableIterator<OpenDocument> {
    return this.docs.values();
  }
}
