import type {
  CodeAction, CodeActionParams, CodeLens, CompletionItem, Definition, DocumentHighlight, DocumentSymbol,
  FoldingRange, Hover, Location, Position,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../core/common/diagnostic';
import type { DiagnosticSettings } from '../core/common/settings';
import type { LineEdit } from '../core/common/lines';

export type { LineEdit };

/**
 * What the server needs from one file format. `server.ts` dispatches LSP requests by the document's
 * format (its language id is the format's id) to one of these; each format keeps one file per
 * feature under `server/<format>/`.
 */
export interface FormatService<M = unknown> {
  /** The id of the format's descriptor (`core/<format>/descriptor.ts`), which is also its language id. */
  formatId: string;
  /** Parses a whole document. */
  parse(doc: TextDocument): M;
  /** Re-parses only what the edits touched; `edits` are in the order they were applied. */
  update?(model: M, doc: TextDocument, edits: readonly LineEdit[]): M;
  diagnostics(model: M, doc: TextDocument, settings: DiagnosticSettings): Diagnostic[];
  /**
   * Validation done ahead of `diagnostics` while `more()` says so; false when there is more to
   * do. The server runs it in slices, answering the requests that came in between.
   */
  prepare?(model: M, more: () => boolean): boolean;
  hover?(model: M, doc: TextDocument, pos: Position): Hover | null;
  definition?(model: M, doc: TextDocument, pos: Position): Definition | null;
  references?(model: M, doc: TextDocument, pos: Position, includeDeclaration: boolean): Location[] | null;
  documentSymbols?(model: M, doc: TextDocument): DocumentSymbol[];
  documentHighlights?(model: M, doc: TextDocument, pos: Position): DocumentHighlight[] | null;
  completion?(model: M, doc: TextDocument, pos: Position): CompletionItem[] | null;
  codeActions?(model: M, doc: TextDocument, params: CodeActionParams): CodeAction[];
  codeLenses?(model: M, doc: TextDocument): CodeLens[];
  foldingRanges?(model: M, doc: TextDocument): FoldingRange[];
}
