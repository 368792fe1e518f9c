import { CompletionItemKind, MarkupKind, type CompletionItem, type Position } from 'vscode-languageserver';
import { completionsAt } from '../../core/cmdq/completion';
import type { CmdqDocument } from '../../core/cmdq/document';
import { toRange } from '../offsetModel';

const KIND = { opcode: CompletionItemKind.EnumMember, field: CompletionItemKind.Property, dep: CompletionItemKind.Reference } as const;

export function cmdqCompletion(model: CmdqDocument, pos: Position): CompletionItem[] {
  return completionsAt(model, model.offsetAt(pos)).map((c) => ({
    label: c.label, kind: KIND[c.kind], detail: c.detail,
    documentation: c.documentation ? { kind: MarkupKind.Markdown, value: c.documentation } : undefined,
    sortText: c.sortText, filterText: c.kind === 'dep' ? c.label : c.insertText,
    textEdit: { range: toRange(model, c.replaceStart, c.replaceEnd), newText: c.insertText },
  }));
}
