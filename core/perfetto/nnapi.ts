import type { Diagnostic, Range } from '../common/diagnostic';
import { analyze, type Analysis } from '../nnapi/analysis';
import { Collector } from '../nnapi/collect';
import type { MarkRow } from '../nnapi/row';
import { GrowColumn } from '../timeline/columns';
import type { PrintEvent } from './packet';

/**
 * The atrace marks of a protobuf trace for the NNAPI rules (core/nnapi), fed as the rows a text
 * systrace gives them: a `B`/`E` print becomes a `tracing_mark_write` row of its thread, with the
 * process from process_tree as the TGID column (`-----` when unknown, as a systrace conversion
 * writes it) and the thread's name as the task. Marks are kept compactly until the end and fed in
 * time order: ftrace bundles come per CPU, so a file's order is not the trace's, while a text
 * systrace is sorted. Each mark's "line" is its rank; diagnostics are moved back to byte offsets.
 */
export class PerfettoMarks {
  private readonly ts = new GrowColumn(Float64Array);
  private readonly tid = new GrowColumn(Float64Array);
  private readonly mark = new GrowColumn(Uint32Array);
  private readonly at = new GrowColumn(Float64Array);
  private readonly texts: string[] = [];
  private readonly textIndex = new Map<string, number>();
  private sorted = true;
  /** Whether any mark is NNAPI's (a tag or a HIDL server mark): only then do the rules apply to a trace. */
  hasNnapi = false;

  print(ev: PrintEvent, text: string): void {
    const c = text.charCodeAt(0);
    // The text reader takes `tracing_mark_write: [BE].*` rows; nothing else reaches the rules.
    if (c !== 66 && c !== 69) return;
    if (!this.hasNnapi && (text.includes('[NN_') || text.includes('HIDL::IDevice'))) this.hasNnapi = true;
    let k = this.textIndex.get(text);
    if (k === undefined) {
      k = this.texts.length;
      this.texts.push(text);
      this.textIndex.set(text, k);
    }
    const t = Number(ev.ts);
    if (this.ts.length && t < this.ts.data[this.ts.length - 1]) this.sorted = false;
    this.ts.push(t);
    this.tid.push(ev.pid);
    this.mark.push(k);
    this.at.push(ev.bufAt);
  }

  get count(): number {
    return this.ts.length;
  }

  /**
   * The NNAPI analysis of the marks (as `analyze` of a text systrace), with every diagnostic at
   * line 0 and the byte offset of its mark's text (plus the column in it) as the character; a
   * message's "line N" of a related mark says "byte N".
   */
  analyze(tgidOf: ReadonlyMap<number, number>, threadNames: ReadonlyMap<number, string>): Analysis {
    const n = this.ts.length;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    if (!this.sorted) {
      const ts = this.ts.data;
      order.sort((a, b) => ts[a] - ts[b] || a - b);
    }
    // summaryOnly: the numbers and diagnostics, no scopes kept for an editor (as `nnapi-stats` reads a text systrace).
    const c = new Collector(false, undefined, true);
    const offsets = new Float64Array(n);
    for (let r = 0; r < n; r++) {
      const i = order[r];
      const tid = this.tid.data[i];
      const tgid = tgidOf.get(tid);
      offsets[r] = this.at.data[i];
      const row: MarkRow = {
        kind: 'row', task: threadNames.get(tid) ?? '<...>', pid: String(tid), tgidColumn: tgid === undefined ? '-----' : String(tgid),
        // ns → s: one correctly rounded division, the same double as the text's `seconds.fraction` read by Number.
        time: this.ts.data[i] / 1e9, mark: this.texts[this.mark.data[i]], markCol: 0,
      };
      c.add(row, r);
    }
    const a = analyze(c);
    const where = (rg: Range): Range => {
      const off = (line: number, ch: number) => (line >= 0 && line < n ? offsets[line] + ch : 0);
      const s = off(rg.start.line, rg.start.character);
      const e = off(rg.end.line, rg.end.character);
      return { start: { line: 0, character: s }, end: { line: 0, character: Math.max(s, e) } };
    };
    const moved = (d: Diagnostic): Diagnostic => {
      if (d.code === 'nnapi.no-runtime') return d;
      let message = d.message;
      for (const r of d.related ?? []) {
        const line = r.range.start.line;
        if (line >= 0 && line < n) message = message.split(`, line ${line + 1})`).join(`, byte ${offsets[line]})`);
      }
      return { ...d, message, range: where(d.range), ...(d.related && { related: d.related.map((r) => ({ ...r, range: where(r.range) })) }) };
    };
    return { ...a, diagnostics: a.diagnostics.map(moved) };
  }
}
