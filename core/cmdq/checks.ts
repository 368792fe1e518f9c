import { clip } from '../common/clip';
import type { Severity } from '../common/diagnostic';
import { escapeControl } from '../common/escape';
import { depRange, entryAnchor, valueRange } from './fields';
import type { CmdqGraph } from './graph';
import { depId, type CmdqEntry, type ParsedCmdq } from './model';
import { MAX_RELATED, type RelatedAt, type Report } from '../json/report';

/** How an entry is named in messages: by its id when it has one. */
export function entryName(doc: ParsedCmdq, i: number): string {
  const e = doc.entries[i];
  return e.id !== undefined ? `${e.id}` : `#${i}`;
}

/** An opcode quoted in a message: a 10 MB or multi-line opcode stays one short line. */
export function quotedOpcode(op: string): string {
  return escapeControl(clip(op));
}

function label(doc: ParsedCmdq, i: number): string {
  const e = doc.entries[i];
  return `entry ${entryName(doc, i)}${e.opcode ? ` (${quotedOpcode(e.opcode)})` : ''}`;
}

/**
 * A number the schema accepts as a non-negative integer but that is not a safe integer (2^53 and
 * above, 1e300): JSON readers round it, so it can name no entry exactly. Negative numbers and
 * fractions are the schema's `minimum` and `integer` problems.
 */
export function isUnsafeId(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v > Number.MAX_SAFE_INTEGER;
}

const UNSAFE = 'is beyond 2^53 − 1 = 9007199254740991, the largest integer JSON readers keep exactly';

/** The token as written (clipped): 9007199254740993 parses as …992, and the user wrote …993. */
function written(doc: ParsedCmdq, a: number, b: number): string {
  return escapeControl(clip(doc.text.slice(a, Math.min(b, a + 100)), 40));
}

/** id-mismatch and duplicate-id. */
export function checkIds(doc: ParsedCmdq, g: CmdqGraph, report: Report): void {
  for (const e of doc.entries) {
    if (e.id === undefined) {
      if (e.obj && isUnsafeId(e.obj.id)) {
        if (!report.wants(e.start)) report.count('error', 'cmdq.invalid-value');
        else {
          const [a, b] = entryAnchor(doc, e);
          report(a, b, 'error', 'cmdq.invalid-value', `id ${written(doc, a, b)} ${UNSAFE}: it cannot be the entry's index ${e.index}, and no deps_before can name it`);
        }
      }
      continue;
    }
    // The graph resolves an id to its first entry: any other entry with that id is a duplicate.
    const prev = g.indexOf(e.id);
    if (prev === e.index && e.id === e.index) continue;
    // Only an entry with a problem is asked where it is (its offsets may be found lazily).
    const want = report.wants(e.start);
    if (prev !== e.index && !want) report.count('error', 'cmdq.duplicate-id');
    else if (prev !== e.index) {
      const [a, b] = entryAnchor(doc, e);
      const [pa, pb] = entryAnchor(doc, doc.entries[prev]);
      report(a, b, 'error', 'cmdq.duplicate-id', `id ${e.id} is already used by the entry at index ${prev}; deps_before naming ${e.id} resolve to that one`, [[pa, pb, `first entry with id ${e.id}`]]);
    }
    if (e.id !== e.index && !want) report.count('error', 'cmdq.id-mismatch');
    else if (e.id !== e.index) {
      const [a, b] = entryAnchor(doc, e);
      report(a, b, 'error', 'cmdq.id-mismatch', `id ${e.id} does not match the entry's index ${e.index} in cmdq (CmdqGenerator assigns id = index)`);
    }
  }
}

/** Dependency diagnostics per entry; the rest of a pathological deps_before is counted and summarised. */
const MAX_DEP_DIAGNOSTICS = 100;

/** The one diagnostic that says how many problems of an entry's deps_before are past the cap. */
export function reportUnlistedDeps(doc: ParsedCmdq, e: CmdqEntry, n: number, report: Report): void {
  if (n <= 0) return;
  const [a, b] = valueRange(doc, e, 'deps_before');
  report(a, b, 'information', 'cmdq.deps-not-listed', `${n} more problem${n === 1 ? '' : 's'} in deps_before not listed (the first ${MAX_DEP_DIAGNOSTICS} of this entry are)`);
}

/**
 * Per-dependency checks: unknown-dep, self-dep, forward-dep and duplicate-dep. `whole` says the
 * queue parsed completely; otherwise an unknown id may just be in the part that did not parse.
 * Past MAX_DEP_DIAGNOSTICS problems in one entry, the rest are counted (they fail the run when
 * they are errors) and said in one cmdq.deps-not-listed on the entry's deps_before.
 */
export function checkDeps(doc: ParsedCmdq, g: CmdqGraph, whole: boolean, report: Report): boolean {
  const entries = doc.entries;
  let forward = false;
  // Per entry: problems it may still locate and word, whether the cap of the whole file still
  // wants them (else they are counted, not located or worded), and how many went past its budget.
  let budget = 0;
  let want = false;
  // Whether `want` was asked for the current entry: only an entry with a problem is (its offsets
  // may be found lazily, parser.ts LazySpans).
  let wantAsked = false;
  let e: CmdqEntry = entries[0];
  let unlisted = 0;
  const problem = (severity: Severity, code: string, say: () => [number, number, string, RelatedAt[]?]): void => {
    if (budget <= 0) {
      if (report.unlisted(severity, code)) unlisted++;
      return;
    }
    budget--;
    if (!wantAsked) {
      want = report.wants(e.start);
      wantAsked = true;
    }
    if (!want) {
      report.count(severity, code);
      return;
    }
    const [a, b, message, related] = say();
    report(a, b, severity, code, message, related);
  };
  for (let i = 0; i < entries.length; i++) {
    e = entries[i];
    const deps = e.deps;
    if (!deps || deps.length === 0) continue;
    // Short lists (the usual 1–3 deps) are searched in place; a Map only pays off for long ones.
    const seen = deps.length > 16 ? new Map<number, number>() : undefined;
    const own = e.id ?? i;
    // A million bad deps in one entry must not become a million diagnostics held in memory.
    budget = MAX_DEP_DIAGNOSTICS;
    wantAsked = false;
    unlisted = 0;
    for (let k = 0; k < deps.length; k++) {
      const id = depId(deps[k]);
      if (id < 0) {
        // Other non-ids are the schema's wrong-type / invalid-value.
        if (isUnsafeId(deps[k])) {
          problem('error', 'cmdq.invalid-value', () => {
            const [a, b] = depRange(doc, e, k);
            return [a, b, `deps_before names ${written(doc, a, b)}, which ${UNSAFE}: no entry can have that id`];
          });
        }
        continue;
      }
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
        problem('warning', 'cmdq.duplicate-dep', () => {
          const [a, b] = depRange(doc, e, k);
          const [fa, fb] = depRange(doc, e, firstK);
          return [a, b, `${id} is listed twice in deps_before`, [[fa, fb, 'first listed here']]];
        });
        continue;
      }
      if (id === own) {
        problem('error', 'cmdq.self-dep', () => {
          const [a, b] = depRange(doc, e, k);
          return [a, b, `Entry ${own} depends on itself: it would wait forever`];
        });
        continue;
      }
      const t = g.indexOf(id);
      if (t < 0) {
        if (!whole && id < entries.length && entries[id].broken) continue;
        if (!whole && id >= entries.length) continue;
        problem('error', 'cmdq.unknown-dep', () => {
          const [a, b] = depRange(doc, e, k);
          return [a, b, `deps_before names ${id}, but no entry has id ${id} (the queue has ${entries.length} entries)`];
        });
        continue;
      }
      if (t > i) {
        forward = true;
        problem('error', 'cmdq.forward-dep', () => {
          const [a, b] = depRange(doc, e, k);
          const [ta, tb] = entryAnchor(doc, entries[t]);
          return [a, b, `Entry ${own} (index ${i}) depends on ${label(doc, t)} at index ${t}, later in the queue: an in-order queue would deadlock`, [[ta, tb, `${label(doc, t)}`]]];
        });
      }
    }
    reportUnlistedDeps(doc, e, unlisted, report);
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
      // Each member's diagnostic lies inside that member's entry.
      if (!report.wants(doc.entries[cycle[j]].start)) {
        report.count('error', 'cmdq.dep-cycle');
        continue;
      }
      const related: RelatedAt[] = [];
      for (let r = 1; r < len && related.length < MAX_RELATED; r++) related.push(edge((j + r) % len));
      const [a, b] = edge(j);
      report(a, b, 'error', 'cmdq.dep-cycle', `Dependency cycle: ${text}; none of these can ever start${extra}`, related);
    }
  }
}

/**
 * What a message calls the entries in `list`: their ids, or `#index` for an entry whose id is
 * missing or shared with an earlier entry, so two entries never read alike ("entries 0, 0").
 */
function distinctNames(doc: ParsedCmdq, g: CmdqGraph, list: readonly number[], max: number): string {
  const names = list.slice(0, max).map((i) => {
    const id = doc.entries[i].id;
    return id !== undefined && g.indexOf(id) === i ? `${id}` : `#${i}`;
  });
  return list.length > max ? `${names.join(', ')} and ${list.length - max} more` : names.join(', ');
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
    // The suggestion is JSON the user can paste: only ids that name their entry can go in deps_before.
    const ids: number[] = [];
    let nameless = 0;
    for (const i of leaves) {
      const id = entries[i].id;
      if (id !== undefined && g.indexOf(id) === i) {
        if (ids.length < 20) ids.push(id);
      } else nameless++;
    }
    const named = leaves.length - nameless;
    const list = named > 20 ? `${ids.join(', ')}, …` : ids.join(', ');
    const more = named > 20 ? ` (${named} leaves in all)` : '';
    const unnamed = nameless ? `; ${nameless} ${nameless === 1 ? 'leaf has no id of its own' : 'leaves have no id of their own'} to wait for` : '';
    report(at.start, at.end, 'error', 'cmdq.missing-end',
      `The queue has no END entry; add { "opcode": "END", "deps_before": [${list}] } as its last entry${more}${unnamed}`);
    return { leaves };
  }
  const last = entries.length - 1;
  for (const i of ends) {
    if (i === last) continue;
    if (!report.wants(entries[i].start)) {
      report.count('error', 'cmdq.end-not-last');
      continue;
    }
    const [a, b] = valueRange(doc, entries[i], 'opcode');
    report(a, b, 'error', 'cmdq.end-not-last', `END must be the last entry of the queue; this one is at index ${i} of ${entries.length}`);
  }
  const end = ends[ends.length - 1];
  const reach = g.ancestors(end);
  const missing = leaves.filter((i) => !reach[i]);
  if (missing.length) {
    const e = entries[end];
    if (!report.wants(e.start)) {
      report.count('error', 'cmdq.end-deps');
      return { leaves };
    }
    const [a, b] = valueRange(doc, e, 'deps_before');
    const rel: RelatedAt[] = missing.slice(0, MAX_RELATED).map((i) => {
      const [ma, mb] = entryAnchor(doc, entries[i]);
      return [ma, mb, `${label(doc, i)}: nothing waits for it`];
    });
    report(a, b, 'error', 'cmdq.end-deps',
      `END does not wait for ${missing.length === 1 ? 'entry' : 'entries'} ${distinctNames(doc, g, missing, 10)}, which nothing else waits for: the queue could end before ${missing.length === 1 ? 'it finishes' : 'they finish'}`, rel);
  }
  return { leaves };
}
