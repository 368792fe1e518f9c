import { depRange, entryAnchor, valueRange } from './fields';
import type { CmdqGraph } from './graph';
import { depId, type ParsedCmdq } from './model';
import { listIds, MAX_RELATED, type RelatedAt, type Report } from './report';

/** How an entry is named in messages: by its id when it has one. */
export function entryName(doc: ParsedCmdq, i: number): string {
  const e = doc.entries[i];
  return e.id !== undefined ? `${e.id}` : `#${i}`;
}

function label(doc: ParsedCmdq, i: number): string {
  const e = doc.entries[i];
  return `entry ${entryName(doc, i)}${e.opcode ? ` (${e.opcode})` : ''}`;
}

/** id-mismatch and duplicate-id. */
export function checkIds(doc: ParsedCmdq, g: CmdqGraph, report: Report): void {
  for (const e of doc.entries) {
    if (e.id === undefined) continue;
    // The graph resolves an id to its first entry: any other entry with that id is a duplicate.
    const prev = g.indexOf(e.id);
    if (prev !== e.index) {
      const [a, b] = entryAnchor(doc, e);
      const [pa, pb] = entryAnchor(doc, doc.entries[prev]);
      report(a, b, 'error', 'cmdq.duplicate-id', `id ${e.id} is already used by the entry at index ${prev}; deps_before naming ${e.id} resolve to that one`, [[pa, pb, `first entry with id ${e.id}`]]);
    }
    if (e.id !== e.index) {
      const [a, b] = entryAnchor(doc, e);
      report(a, b, 'error', 'cmdq.id-mismatch', `id ${e.id} does not match the entry's index ${e.index} in cmdq (CmdqGenerator assigns id = index)`);
    }
  }
}

/**
 * Per-dependency checks: unknown-dep, self-dep, forward-dep and duplicate-dep. `whole` says the
 * queue parsed completely; otherwise an unknown id may just be in the part that did not parse.
 */
/** Dependency diagnostics per entry; the rest of a pathological deps_before is not reported one by one. */
const MAX_DEP_DIAGNOSTICS = 100;

export function checkDeps(doc: ParsedCmdq, g: CmdqGraph, whole: boolean, report: Report): boolean {
  const entries = doc.entries;
  let forward = false;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const deps = e.deps;
    if (!deps || deps.length === 0) continue;
    // Short lists (the usual 1–3 deps) are searched in place; a Map only pays off for long ones.
    const seen = deps.length > 16 ? new Map<number, number>() : undefined;
    const own = e.id ?? i;
    // A million bad deps in one entry must not become a million diagnostics held in memory.
    let budget = MAX_DEP_DIAGNOSTICS;
    for (let k = 0; k < deps.length; k++) {
      const id = depId(deps[k]);
      if (id < 0) continue; // wrong-type / invalid-value from the schema
      if (budget <= 0 && forward) break;
      let firstK = -1;
      if (seen) {
        firstK = seen.get(id) ?? -1;
        if (firstK < 0) seen.set(id, k);
      } else {
        for (let j = 0; j < k; j++) {
          if (depId(deps[j]) === id) {
            firstK = j;
            break;
          }
        }
      }
      if (firstK >= 0) {
        if (budget-- > 0) {
          const [a, b] = depRange(doc, e, k);
          const [fa, fb] = depRange(doc, e, firstK);
          report(a, b, 'warning', 'cmdq.duplicate-dep', `${id} is listed twice in deps_before`, [[fa, fb, 'first listed here']]);
        }
        continue;
      }
      if (id === own) {
        if (budget-- > 0) {
          const [a, b] = depRange(doc, e, k);
          report(a, b, 'error', 'cmdq.self-dep', `Entry ${own} depends on itself: it would wait forever`);
        }
        continue;
      }
      const t = g.indexOf(id);
      if (t < 0) {
        if (!whole && id < entries.length && entries[id].broken) continue;
        if (!whole && id >= entries.length) continue;
        if (budget-- > 0) {
          const [a, b] = depRange(doc, e, k);
          report(a, b, 'error', 'cmdq.unknown-dep', `deps_before names ${id}, but no entry has id ${id} (the queue has ${entries.length} entries)`);
        }
        continue;
      }
      if (t > i) {
        forward = true;
        if (budget-- > 0) {
          const [a, b] = depRange(doc, e, k);
          const [ta, tb] = entryAnchor(doc, entries[t]);
          report(a, b, 'error', 'cmdq.forward-dep',
            `Entry ${own} (index ${i}) depends on ${label(doc, t)} at index ${t}, later in the queue: an in-order queue would deadlock`, [[ta, tb, `${label(doc, t)}`]]);
        }
      }
    }
  }
  return forward;
}

/** Members of one cycle that get a diagnostic: more would be capped at publication anyway. */
const MAX_CYCLE_DIAGNOSTICS = 1000;

/**
 * dep-cycle: the whole cycle in the message (the first 30 members of a longer one), reported on
 * each member's edge to the next, with the other members' edges as related information (the next
 * MAX_RELATED ones around the cycle, so a 100k-entry cycle stays linear).
 */
export function checkCycles(doc: ParsedCmdq, g: CmdqGraph, report: Report): void {
  for (const comp of g.cycles()) {
    const cycle = g.cycleIn(comp);
    const len = cycle.length;
    if (len < 2) continue;
    const names = (cycle.length > 30 ? cycle.slice(0, 30) : cycle).map((i) => entryName(doc, i));
    const text = len > 30 ? `${names.join(' → ')} → … (${len} entries) → ${names[0]}` : `${names.join(' → ')} → ${names[0]}`;
    const memo = new Map<number, RelatedAt>();
    // The edge from member j to the next, located on the deps_before element naming it.
    const edge = (j: number): RelatedAt => {
      let r = memo.get(j);
      if (r) return r;
      const v = cycle[j];
      const next = cycle[(j + 1) % len];
      const e = doc.entries[v];
      const deps = e.deps ?? [];
      const k = deps.findIndex((d) => { const id = depId(d); return id >= 0 && g.indexOf(id) === next; });
      const [a, b] = k >= 0 ? depRange(doc, e, k) : valueRange(doc, e, 'deps_before');
      r = [a, b, `${entryName(doc, v)} waits for ${entryName(doc, next)}`];
      memo.set(j, r);
      return r;
    };
    const extra = comp.length > len ? ` (${comp.length} entries are caught in cycles here)` : '';
    for (let j = 0; j < Math.min(len, MAX_CYCLE_DIAGNOSTICS); j++) {
      const related: RelatedAt[] = [];
      for (let r = 1; r < len && related.length < MAX_RELATED; r++) related.push(edge((j + r) % len));
      const [a, b] = edge(j);
      report(a, b, 'error', 'cmdq.dep-cycle', `Dependency cycle: ${text}; none of these can ever start${extra}`, related);
    }
  }
}

/** missing-end, end-not-last and end-deps. */
export function checkEnd(doc: ParsedCmdq, g: CmdqGraph, report: Report): { leaves: number[] } {
  const entries = doc.entries;
  const ends: number[] = [];
  for (const e of entries) if (e.opcode === 'END') ends.push(e.index);
  const isEnd = (i: number) => entries[i].opcode === 'END';
  const leaves = g.leaves(isEnd).filter((i) => !entries[i].broken);
  if (ends.length === 0) {
    const at = doc.cmdqKey ?? doc.rootSpan;
    report(at.start, at.end, 'error', 'cmdq.missing-end',
      `The queue has no END entry; add { "opcode": "END", "deps_before": [${listIds(leaves.map((i) => entryName(doc, i)), 20)}] } as its last entry`);
    return { leaves };
  }
  const last = entries.length - 1;
  for (const i of ends) {
    if (i === last) continue;
    const [a, b] = valueRange(doc, entries[i], 'opcode');
    report(a, b, 'error', 'cmdq.end-not-last', `END must be the last entry of the queue; this one is at index ${i} of ${entries.length}`);
  }
  const end = ends[ends.length - 1];
  const reach = g.ancestors(end);
  const missing = leaves.filter((i) => !reach[i]);
  if (missing.length) {
    const e = entries[end];
    const [a, b] = valueRange(doc, e, 'deps_before');
    const rel: RelatedAt[] = missing.map((i) => {
      const [ma, mb] = entryAnchor(doc, entries[i]);
      return [ma, mb, `${label(doc, i)}: nothing waits for it`];
    });
    report(a, b, 'error', 'cmdq.end-deps',
      `END does not wait for ${missing.length === 1 ? 'entry' : 'entries'} ${listIds(missing.map((i) => entryName(doc, i)))}, which nothing else waits for: the queue could end before ${missing.length === 1 ? 'it finishes' : 'they finish'}`, rel);
  }
  return { leaves };
}
