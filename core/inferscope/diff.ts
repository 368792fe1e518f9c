import { GroupSet } from '../diff/groups';
import { KIND } from '../timeline/model';
import type { DiffRun, DiffSupport } from '../diff/types';
import { CATEGORY_OF, PROFILER_TYPE } from './analyze';
import { InferscopeDocument } from './document';
import { str, type Element } from './model';
import { validRange } from './scopeChecks';
import { SpanKind } from './profilerLayout';
import { timesOf } from './times';

/**
 * `npu-trace diff` of InferScope traces, grouped as `npu-trace analyze` counts them: by category
 * (the analysis' categories: gpu_compute, h2d_copy, d2h_copy, cpu_preprocessing; each event one
 * item, its end − start in µs) and by scope name (each scope one item: from its first event's start
 * to its last one's end, or its enter to its exit in the Profiler's layout). Memory events and
 * instants count in no category, as in the analysis.
 */
export function inferscopeDiffRun(text: string): DiffRun {
  const doc = InferscopeDocument.parse(text);
  // An analysis or a report (the same language) has no events to compare.
  if (doc.kind !== 'trace' || doc.parsed.rootKind !== 'object') throw new Error('not an InferScope trace (no "format_version" and "events")');
  const category = new GroupSet('category');
  const scope = new GroupSet('scope');
  const lineOf = (e: Element | undefined) => (e === undefined ? undefined : (e.line ?? doc.positionAt(e.start).line) + 1);
  const events = doc.parsed.events;
  let t0 = Infinity;
  let t1 = -Infinity;
  const cat = (type: string | undefined) => (type !== undefined && Object.hasOwn(CATEGORY_OF, type) ? CATEGORY_OF[type] : undefined);
  if (doc.layout === 'profiler') {
    const p = doc.profiler;
    for (let i = 0; i < p.length; i++) {
      if (p.end[i] < p.start[i]) continue;
      t0 = Math.min(t0, p.start[i]);
      t1 = Math.max(t1, p.end[i]);
      const c = cat(PROFILER_TYPE[p.kind[i]]);
      if (c) category.add(c, p.end[i] - p.start[i], lineOf(events[p.first[i]]));
      else if (p.kind[i] === SpanKind.Scope) scope.add(p.name[i], p.end[i] - p.start[i], lineOf(events[p.first[i]]));
    }
  } else {
    for (const e of events) {
      const t = timesOf(e);
      if (!(t.end >= t.start)) continue;
      t0 = Math.min(t0, t.start);
      t1 = Math.max(t1, t.end);
      const c = cat(str(e.obj?.type));
      if (c) category.add(c, t.end - t.start, lineOf(e));
    }
    for (const s of doc.parsed.scopes) {
      const r = validRange(s, events.length);
      const name = str(s.obj?.name);
      if (!r || name === undefined) continue;
      const [a, b] = doc.times.range(r[0], r[1]);
      if (b >= a) scope.add(name, b - a, lineOf(s));
    }
  }
  return { unit: 'us', span: t1 >= t0 ? t1 - t0 : null, groups: [...category.list(), ...scope.list()], metrics: [] };
}

export const inferscopeDiff: DiffSupport = {
  kinds: ['category', 'scope'],
  text: inferscopeDiffRun,
  // Each scope at its first event (the timeline's scope slices, the only slices it draws; in the
  // Profiler's layout from its enter), a name repeated numbered in time order (`infer #2`).
  markers: [{ label: 'scope', key: 'name', kinds: [KIND.slice], each: true, group: 'scope' }],
};
