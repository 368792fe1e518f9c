import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver';
import { clip } from '../../core/common/clip';
import { range } from '../../core/common/diagnostic';
import { escapeControl, MAX_QUOTED } from '../../core/common/escape';
import type { NnapiDocument } from '../../core/nnapi/document';
import { tagRange } from '../../core/nnapi/mark';
import type { Scope } from '../../core/nnapi/scope';

/**
 * Scope levels the outline nests; deeper scopes are listed flat at this level and say so. A trace
 * can nest without end, and a 3000-deep tree of symbols could no longer be sent to the editor.
 */
export const MAX_OUTLINE_DEPTH = 40;
/** Symbols in one outline; the scopes after them are counted in a last entry. */
export const MAX_SYMBOLS = 10_000;

interface Placed {
  /** Level in the outline (1 = directly under the thread) and in the trace. */
  depth: number;
  realDepth: number;
  /** Where this scope's children go: its own children, or at the deepest level its own list. */
  childList: DocumentSymbol[];
}

/** The call tree per thread (per run when there are several), as traced: `B` to `E`, dummies of `[SW]` left out. */
export function nnapiSymbols(model: NnapiDocument): DocumentSymbol[] {
  const a = model.analysis;
  const several = a.runs.length > 1;
  const out: DocumentSymbol[] = [];
  let count = 0;
  let omitted = 0;
  let firstOmitted = -1;
  for (const { run } of a.runs) {
    for (const t of run.threads.values()) {
      if (!t.scopes.length) continue;
      if (count >= MAX_SYMBOLS) {
        if (firstOmitted < 0) firstOmitted = t.scopes[0].line;
        omitted += t.scopes.length;
        continue;
      }
      count++;
      const placed = new Map<Scope, Placed>();
      const lastLine = Math.max(t.lastLine, run.lastLine);
      const top: DocumentSymbol[] = [];
      for (const s of t.scopes) {
        if (count >= MAX_SYMBOLS) {
          if (firstOmitted < 0) firstOmitted = s.line;
          omitted++;
          continue;
        }
        count++;
        const [ta, tb] = tagRange(s.mark);
        const end = s.endLine >= 0 ? s.endLine : lastLine;
        const parent = s.rawParent ? placed.get(s.rawParent) : undefined;
        const realDepth = parent ? parent.realDepth + 1 : 1;
        const depth = parent ? Math.min(parent.depth + 1, MAX_OUTLINE_DEPTH) : 1;
        const flat = realDepth > depth;
        const sym: DocumentSymbol = {
          name: escapeControl(clip(s.fn || s.mark || '(scope)', MAX_QUOTED)),
          detail: `${escapeControl(clip(`${s.layer}_${s.phaseTag}`, MAX_QUOTED))} · ${s.elapsedMs().toFixed(3)} ms${flat ? ` · nested ${realDepth} deep, listed flat (the outline nests ${MAX_OUTLINE_DEPTH} levels)` : ''}`,
          kind: s.layer === 'LA' ? SymbolKind.Module : s.layer === 'LX' ? SymbolKind.Event : SymbolKind.Function,
          range: range(s.line, 0, 0, Math.max(end, s.line) + 1),
          selectionRange: range(s.line, s.markCol + ta, s.markCol + tb),
          children: [],
        };
        const list = parent ? parent.childList : top;
        list.push(sym);
        placed.set(s, { depth, realDepth, childList: depth < MAX_OUTLINE_DEPTH ? sym.children! : list });
      }
      const first = t.scopes[0].line;
      out.push({
        name: `${several ? `run ${run.index + 1} · ` : ''}thread ${t.pid}${t.task ? ` (${escapeControl(clip(t.task, MAX_QUOTED))})` : ''}`,
        detail: `process ${t.tgid}${t.isDriver ? ' · driver' : ''}`,
        kind: SymbolKind.Namespace,
        range: range(first, 0, 0, lastLine + 1),
        selectionRange: range(first, 0, 0),
        children: top,
      });
    }
  }
  if (omitted) {
    const at = Math.max(firstOmitted, 0);
    out.push({
      name: `… ${omitted} more scopes not listed`, detail: `the outline lists at most ${MAX_SYMBOLS} entries`,
      kind: SymbolKind.Namespace, range: range(at, 0, 0, at + 1), selectionRange: range(at, 0, 0),
    });
  }
  return out;
}

/** Folding ranges sent for one document (VS Code keeps 5000 by default, `editor.foldingMaximumRegions`). */
export const MAX_FOLDS = 5000;

/** A folding range from each `B` to the row that closes it, in line order, the first MAX_FOLDS. */
export function nnapiFolding(model: NnapiDocument): FoldingRange[] {
  const out: FoldingRange[] = [];
  const opened = model.analysis.opened;
  for (let line = 0; line < model.lineCount && out.length < MAX_FOLDS; line++) {
    const s = opened.get(line);
    if (s && s.endLine > s.line) out.push({ startLine: s.line, endLine: s.endLine, kind: FoldingRangeKind.Region });
  }
  return out;
}
