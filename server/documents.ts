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

  constructor(private readonly services: readonly FormatService[]) {}

  serviceFor(languageId: string): FormatService | undefined {
    return this.services.find((s) => s.languageId === languageId);
  }

  open(uri: string, languageId: string, version: number, text: string): OpenDocument {
    const doc = LineDocument.create(uri, languageId, version, text);
    const service = this.serviceFor(languageId);
    const entry: OpenDocument = { doc, service, model: service?.parse(doc) };
    this.docs.set(uri, entry);
    return entry;
  }

  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): OpenDocument | undefined {
    const entry = this.docs.get(uri);
    if (!entry) return undefined;
    const edits = entry.doc.apply(changes, version);
    const s = entry.service;
    if (s) entry.model = edits && s.update ? s.update(entry.model, entry.doc, edits) : s.parse(entry.doc);
    return entry;
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
