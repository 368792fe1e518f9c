import type { LineEdit } from '../core/common/lines';
import type { TraceDocument } from '../core/trace/document';
import type { hoverAt } from '../core/trace/hover';
import type { definitionAt, referencesAt } from '../core/trace/navigation';
import type { documentSymbols } from '../core/trace/symbols';
import { LspClient } from '../test/lsp/lspClient';
import { cpuMs } from './util';

/** The editor's core as the bench drives it: this checkout's, or an older build's (same API). */
export interface EditorCore {
  parse(text: string): TraceDocument;
  hoverAt: typeof hoverAt;
  definitionAt: typeof definitionAt;
  referencesAt: typeof referencesAt;
  documentSymbols: typeof documentSymbols;
}

export type EditKind = 'typed' | 'inserted' | 'deleted' | 'paste100' | 'cut100';

/** One edit as lines replaced and as the LSP change that makes it. */
interface Edit {
  kind: EditKind;
  lineEdit: LineEdit;
  apply(lines: string[]): void;
  change: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string };
}

/** Milliseconds of each step after each edit, by edit kind; `first` is the document's first edit. */
export interface EditTimes {
  open: number;
  openSymbols: number;
  first: Record<Step, number>;
  byKind: Record<EditKind, Record<Step, number[]>>;
  /** CPU ms of edit → diagnostics, by kind (the core only: the server's CPU is another process). */
  cpu: Record<EditKind, number[]>;
  /**
   * Over stdio only: a request the server does not know, answered by the JSON-RPC layer without
   * touching the document, after each edit: the round trip's floor at the machine's load.
   */
  floor: number[];
}

export type Step = 'edit' | 'symbols' | 'hover' | 'definition' | 'references';
const STEPS: Step[] = ['edit', 'symbols', 'hover', 'definition', 'references'];

/**
 * The sequence of edits, the same for every run: typed characters (a '-' into a t_cycle, then
 * removed), a copy of a line inserted below it and deleted again, and 100 lines pasted and cut.
 * Positions spread over the file; typing counts the document's first edit.
 */
function plan(lines: string[]): Edit[] {
  const n = lines.length;
  const out: Edit[] = [];
  const spot = (k: number) => 1 + ((k * 7919) % (n - 200));
  for (let k = 0; k < 16; k++) {
    const line = spot(k);
    const at = lines[line].indexOf('"t_cycle":') + 10;
    out.push({ kind: 'typed', lineEdit: { start: line, end: line + 1, newCount: 1 }, apply: (ls) => { ls[line] = ls[line].slice(0, at) + '-' + ls[line].slice(at); },
      change: { range: { start: { line, character: at }, end: { line, character: at } }, text: '-' } });
    out.push({ kind: 'typed', lineEdit: { start: line, end: line + 1, newCount: 1 }, apply: (ls) => { ls[line] = ls[line].slice(0, at) + ls[line].slice(at + 1); },
      change: { range: { start: { line, character: at }, end: { line, character: at + 1 } }, text: '' } });
  }
  for (let k = 0; k < 15; k++) {
    const line = spot(k + 100);
    const copy = lines[line];
    out.push({ kind: 'inserted', lineEdit: { start: line + 1, end: line + 1, newCount: 1 }, apply: (ls) => { ls.splice(line + 1, 0, copy); },
      change: { range: { start: { line: line + 1, character: 0 }, end: { line: line + 1, character: 0 } }, text: `${copy}\n` } });
    out.push({ kind: 'deleted', lineEdit: { start: line + 1, end: line + 2, newCount: 0 }, apply: (ls) => { ls.splice(line + 1, 1); },
      change: { range: { start: { line: line + 1, character: 0 }, end: { line: line + 2, character: 0 } }, text: '' } });
  }
  for (let k = 0; k < 5; k++) {
    const line = 100 + spot(k + 200);
    const block = lines.slice(line - 100, line);
    out.push({ kind: 'paste100', lineEdit: { start: line, end: line, newCount: 100 }, apply: (ls) => { ls.splice(line, 0, ...block); },
      change: { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: `${block.join('\n')}\n` } });
    out.push({ kind: 'cut100', lineEdit: { start: line, end: line + 100, newCount: 0 }, apply: (ls) => { ls.splice(line, 100); },
      change: { range: { start: { line, character: 0 }, end: { line: line + 100, character: 0 } }, text: '' } });
  }
  return out;
}

/** A position on the `cmd_id` value of a line far from `edited` (a hover elsewhere in the file). */
function probe(lines: string[], edited: number): { line: number; character: number } {
  let line = (edited + (lines.length >> 1)) % lines.length;
  while (!lines[line].includes('"cmd_id":')) line = (line + 1) % lines.length;
  return { line, character: lines[line].indexOf('"cmd_id":') + 10 };
}

function emptyTimes(): EditTimes {
  const kinds: EditKind[] = ['typed', 'inserted', 'deleted', 'paste100', 'cut100'];
  const rec = () => Object.fromEntries(STEPS.map((s) => [s, [] as number[]])) as Record<Step, number[]>;
  return { open: 0, openSymbols: 0, first: {} as Record<Step, number>,
    byKind: Object.fromEntries(kinds.map((k) => [k, rec()])) as EditTimes['byKind'],
    cpu: Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as EditTimes['cpu'], floor: [] };
}

function ms<T>(f: () => T): [number, T] {
  const t = performance.now();
  const v = f();
  return [performance.now() - t, v];
}

/** The sequence in the core: update + diagnostics, then a hover, definition, references and the outline. */
export function coreEdits(core: EditorCore, text: string): EditTimes {
  const times = emptyTimes();
  const lines = text.split('\n');
  const [open, doc] = ms(() => {
    const d = core.parse(text);
    d.allDiagnostics();
    return d;
  });
  times.open = open;
  times.openSymbols = ms(() => core.documentSymbols(doc))[0];
  let first = true;
  for (const e of plan(lines)) {
    e.apply(lines);
    const c = cpuMs();
    const edit = ms(() => doc.update([e.lineEdit], (i) => lines[i]).allDiagnostics())[0];
    times.cpu[e.kind].push(cpuMs() - c);
    const p = probe(lines, e.lineEdit.start);
    // The hover is the first request after the edit: whatever the edit left to rebuild, it pays.
    const t: Record<Step, number> = {
      edit,
      hover: ms(() => core.hoverAt(doc, p.line, p.character))[0],
      definition: ms(() => core.definitionAt(doc, p.line, p.character))[0],
      references: ms(() => core.referencesAt(doc, p.line, p.character))[0],
      symbols: ms(() => core.documentSymbols(doc))[0],
    };
    if (first) times.first = t;
    first = false;
    for (const s of STEPS) times.byKind[e.kind][s].push(t[s]);
  }
  return times;
}

/** The same sequence through the built server over stdio, awaiting each answer as an editor would. */
export async function lspEdits(text: string, server?: string): Promise<EditTimes> {
  const times = emptyTimes();
  const lines = text.split('\n');
  const c = await LspClient.start({ server });
  try {
    const uri = 'file:///bench-edits.trace.jsonl';
    const td = { textDocument: { uri } };
    let t = performance.now();
    await c.open(uri, 'npu-trace', text);
    times.open = performance.now() - t;
    t = performance.now();
    await c.request('textDocument/documentSymbol', td);
    times.openSymbols = performance.now() - t;
    let first = true;
    for (const e of plan(lines)) {
      e.apply(lines);
      const p = probe(lines, e.lineEdit.start);
      const at = { ...td, position: p };
      const step = async (f: () => Promise<unknown>) => {
        const s = performance.now();
        await f();
        return performance.now() - s;
      };
      const r: Record<Step, number> = {
        edit: await step(() => c.change(uri, [e.change])),
        hover: await step(() => c.request('textDocument/hover', at)),
        definition: await step(() => c.request('textDocument/definition', at)),
        references: await step(() => c.request('textDocument/references', { ...at, context: { includeDeclaration: true } })),
        symbols: 0,
      };
      times.floor.push(await step(() => c.request('npu/benchFloor', {}).catch(() => undefined)));
      r.symbols = await step(() => c.request('textDocument/documentSymbol', td));
      if (first) times.first = r;
      first = false;
      for (const s of STEPS) times.byKind[e.kind][s].push(r[s]);
    }
  } finally {
    await c.stop();
  }
  return times;
}
