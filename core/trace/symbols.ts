import type { TraceDocument } from './document';
import { commandSummary } from './summary';
import { valueRange } from './token';

export interface TraceSymbol {
  name: string;
  detail: string;
  /** Lines spanned: from the CMD_ENQUEUE to the command's last line. */
  startLine: number;
  endLine: number;
  selection: { line: number; start: number; end: number };
  endChar: number;
}

/** The outline: one entry per enqueued command, with its type, phase and layer. */
export function documentSymbols(doc: TraceDocument): TraceSymbol[] {
  const out: TraceSymbol[] = [];
  for (const i of doc.index.commands) {
    const l = doc.lines[i];
    const s = commandSummary(doc, l.cmd!)!;
    const lines = doc.index.linesOf('cmd_id', l.cmd!);
    const last = Math.max(i, lines[lines.length - 1]);
    const r = valueRange(doc, i, 'cmd_id') ?? [0, 0];
    out.push({
      name: `cmd ${s.cmd}${s.cmdType ? ` ${s.cmdType}` : ''}`,
      detail: [s.phase, s.layer !== undefined ? `layer ${s.layer}` : undefined].filter(Boolean).join(' · '),
      startLine: i, endLine: last, endChar: doc.lines[last].text.length,
      selection: { line: i, start: r[0], end: r[1] },
    });
  }
  return out;
}
