import type { Diagnostic } from '../../common/diagnostic';
import type { CmdqDocument } from '../document';
import { tokenAt } from '../navigation';

/**
 * A checker problem placed in the graph: on the node of entry `index`, and on the edge from entry
 * `from` when it sits on a `deps_before` element naming an entry (cycle, forward dep, self dep,
 * duplicate dep: the edge that element makes). `peer`: the other entry an SPM overlap concerns
 * (the earlier load whose tile it can overwrite), flagged as well.
 */
export interface GraphProblem {
  index: number;
  code: string;
  severity: string;
  from?: number;
  peer?: number;
}

/**
 * Joins the diagnostics the server publishes (already capped by `maxProblems`, so this list is
 * bounded as it is made) with the graph by entry index: the entry whose text holds the start of
 * the problem's range, the dep element under it, the entry a related location points into.
 */
export function graphProblems(doc: CmdqDocument, diagnostics: readonly Diagnostic[]): GraphProblem[] {
  const out: GraphProblem[] = [];
  for (const d of diagnostics) {
    const at = doc.offsetAt(d.range.start);
    const index = doc.entryAt(at);
    if (index === undefined) continue;
    const p: GraphProblem = { index, code: d.code, severity: d.severity };
    const t = tokenAt(doc, at);
    if (t?.kind === 'dep' && t.target >= 0) p.from = t.target;
    if (d.code === 'cmdq.spm-overlap' && d.related?.length) {
      const peer = doc.entryAt(doc.offsetAt(d.related[0].range.start));
      if (peer !== undefined && peer !== index) p.peer = peer;
    }
    out.push(p);
  }
  return out;
}
