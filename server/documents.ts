import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { FormatService, LineEdit } from './format';

export interface OpenDocument {
  doc: TextDocument;
  service: FormatService | undefined;
  model: unknown;
}

/** Counts the line breaks in `text` the way LSP does (`\r\n`, `\r`, `\n`). */
function countBreaks(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) n++;
    else if (c === 13) {
      n++;
      if (text.charCodeAt(i + 1) === 10) i++;
    }
  }
  return n;
}

/**
 * Keeps each open document with its parsed model. Incremental changes are turned into line edits so
 * a format can re-parse only the lines an edit touched; the model is parsed once per version.
 */
export class DocumentStore {
  private readonly docs = new Map<string, OpenDocument>();

  constructor(private readonly services: readonly FormatService[]) {}

  serviceFor(languageId: string): FormatService | undefined {
    return this.services.find((s) => s.languageId === languageId);
  }

  open(uri: string, languageId: string, version: number, text: string): OpenDocument {
    const doc = TextDocument.create(uri, languageId, version, text);
    const service = this.serviceFor(languageId);
    const entry: OpenDocument = { doc, service, model: service?.parse(doc) };
    this.docs.set(uri, entry);
    return entry;
  }

  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): OpenDocument | undefined {
    const entry = this.docs.get(uri);
    if (!entry) return undefined;
    const edits: LineEdit[] = [];
    let full = false;
    let doc = entry.doc;
    for (const ch of changes) {
      if ('range' in ch) {
        const start = ch.range.start.line;
        const end = ch.range.end.line + 1;
        edits.push({ start, end, newCount: countBreaks(ch.text) + 1 });
      } else {
        full = true;
      }
      doc = TextDocument.update(doc, [ch], version);
    }
    entry.doc = doc;
    const s = entry.service;
    if (s) entry.model = !full && s.update ? s.update(entry.model, doc, edits) : s.parse(doc);
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
