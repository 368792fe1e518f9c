import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver';
import { range } from '../../core/common/diagnostic';
import type { NnapiDocument } from '../../core/nnapi/document';
import { tagRange } from '../../core/nnapi/mark';
import type { Scope } from '../../core/nnapi/scope';

/** The call tree per thread (per run when there are several), as traced: `B` to `E`, dummies of `[SW]` left out. */
export function nnapiSymbols(model: NnapiDocument): DocumentSymbol[] {
  const a = model.analysis;
  const several = a.runs.length > 1;
  const out: DocumentSymbol[] = [];
  for (const { run } of a.runs) {
    for (const t of run.threads.values()) {
      if (!t.scopes.length) continue;
      const symbolOf = new Map<Scope, DocumentSymbol>();
      const lastLine = Math.max(t.lastLine, run.lastLine);
      const top: DocumentSymbol[] = [];
      for (const s of t.scopes) {
        const [ta, tb] = tagRange(s.mark);
        const end = s.endLine >= 0 ? s.endLine : lastLine;
        const sym: DocumentSymbol = {
          name: s.fn || s.mark || '(scope)',
          detail: `${s.layer}_${s.phaseTag} · ${s.elapsedMs().toFixed(3)} ms`,
          kind: s.layer === 'LA' ? SymbolKind.Module : s.layer === 'LX' ? SymbolKind.Event : SymbolKind.Function,
          range: range(s.line, 0, 0, Math.max(end, s.line) + 1),
          selectionRange: range(s.line, s.markCol + ta, s.markCol + tb),
          children: [],
        };
        symbolOf.set(s, sym);
        const parent = s.rawParent ? symbolOf.get(s.rawParent) : undefined;
        (parent ? parent.children! : top).push(sym);
      }
      const first = t.scopes[0].line;
      out.push({
        name: `${several ? `run ${run.index + 1} · ` : ''}thread ${t.pid}${t.task ? ` (${t.task})` : ''}`,
        detail: `process ${t.tgid}${t.isDriver ? ' · driver' : ''}`,
        kind: SymbolKind.Namespace,
        range: range(first, 0, 0, lastLine + 1),
        selectionRange: range(first, 0, 0),
        children: top,
      });
    }
  }
  return out;
}

/** A folding range from each `B` to the row that closes it. */
export function nnapiFolding(model: NnapiDocument): FoldingRange[] {
  const out: FoldingRange[] = [];
  for (const { run } of model.analysis.runs) {
    for (const t of run.threads.values()) {
      for (const s of t.scopes) {
        if (s.endLine > s.line) out.push({ startLine: s.line, endLine: s.endLine, kind: FoldingRangeKind.Region });
      }
    }
  }
  return out.sort((x, y) => x.startLine - y.startLine);
}
