import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import type { FormatService } from './format';
import { LineDocument } from './lineDocument';

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

  serviceFor(languageId: string): FormatService | undefined {
    return this.services.find((s) => s.languageId === languageId);
  }

  /** `onError` hears of a format that failed: the document stays open, without a model, instead of killing the server. */
  constructor(private readonly services: readonly FormatService[], private readonly onError: (uri: string, err: unknown) => void = () => {}) {}

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
