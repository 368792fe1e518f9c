import { clip } from '../common/clip';
import { escapeControl } from '../common/escape';
import type { TraceDocument } from './document';
import type { TraceLine } from './line';
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

/** Top-level entries of the outline; a file can hold any number of commands. */
export const MAX_SYMBOLS = 10_000;

/** A command's name and detail, kept on its id's lines in the index until one of them changes. */
interface Label {
  name: string;
  detail: string;
}

/** Where `cmd_id`'s value is on an enqueue line, kept per line object (a new text is a new object). */
const selections = new WeakMap<TraceLine, [number, number]>();

/**
 * The outline: one entry per enqueued command, with its type, phase and layer; past `max`, one
 * last entry says how many more there are. Each command's label is computed from its lines once
 * and kept until an edit touches a line of that command, so after an edit the outline re-reads
 * only the commands the edit touched.
 */
export function documentSymbols(doc: TraceDocument, max = MAX_SYMBOLS): TraceSymbol[] {
  const out: TraceSymbol[] = [];
  const { commands } = doc.index;
  const n = Math.min(commands.length, max);
  for (let k = 0; k < n; k++) {
    const i = commands[k];
    const l = doc.lines[i];
    const entry = doc.index.entry('cmd_id', l.cmd!)!;
    const label = (entry.memo ??= labelOf(doc, l)) as Label;
    const last = Math.max(i, entry.lines[entry.lines.length - 1]);
    let r = selections.get(l);
    if (!r) selections.set(l, (r = valueRange(doc, i, 'cmd_id') ?? [0, 0]));
    out.push({
      name: label.name, detail: label.detail,
      startLine: i, endLine: last, endChar: doc.lines[last].text.length,
      selection: { line: i, start: r[0], end: r[1] },
    });
  }
  if (commands.length > n) {
    const i = commands[n];
    const end = doc.lines.length - 1;
    out.push({
      name: `… ${commands.length - n} more commands`, detail: `the outline lists the first ${n}`,
      startLine: i, endLine: end, endChar: doc.lines[end].text.length, selection: { line: i, start: 0, end: 0 },
    });
  }
  return out;
}

/** A value from the file in the outline: one short line, controls and bidi characters visible. */
const shown = (v: unknown) => escapeControl(clip(String(v)));

function labelOf(doc: TraceDocument, l: TraceLine): Label {
  const s = commandSummary(doc, l.cmd!)!;
  return {
    name: `cmd ${shown(s.cmd)}${s.cmdType ? ` ${shown(s.cmdType)}` : ''}`,
    detail: [s.phase && shown(s.phase), s.layer !== undefined ? `layer ${shown(s.layer)}` : undefined].filter(Boolean).join(' · '),
  };
}
