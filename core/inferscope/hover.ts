import { escapeMarkdown, markdownCode } from '../common/escape';
import type { InferscopeDocument } from './document';
import { num, str, type Element } from './model';
import { innermostScope, scopeTokenAt } from './navigation';
import { validRange } from './scopeChecks';
import { timesOf } from './times';
import { SpanKind, type ProfilerSpans } from './profilerLayout';

/** At most this many scopes of a path are shown: a parent_id chain may be a million long or a cycle. */
const MAX_PATH = 12;

function us(v: number): string {
  return `${v} µs (${Math.round(v) / 1000} ms)`;
}

/** "inference › request 0 › gpu", innermost last. */
export function scopePath(doc: InferscopeDocument, scope: number): string {
  const names: string[] = [];
  const seen = new Set<number>();
  let i = scope;
  while (i >= 0 && !seen.has(i) && names.length < MAX_PATH) {
    seen.add(i);
    const o = doc.parsed.scopes[i].obj;
    names.unshift(escapeMarkdown(str(o?.name) ?? str(o?.id) ?? `#${i}`, 60));
    const p = o?.parent_id;
    i = typeof p === 'string' ? (doc.scopeIds.get(p) ?? -1) : -1;
  }
  return (i >= 0 ? '… › ' : '') + names.join(' › ');
}

function dims(v: unknown): string | undefined {
  return Array.isArray(v) && v.length <= 3 && v.every((x) => typeof x === 'number') ? `[${v.join(', ')}]` : undefined;
}

/** Per Profiler trace: the span each event opens or closes (-1: none). */
const spanOfEvent = new WeakMap<ProfilerSpans, Int32Array>();

/**
 * An event of the Profiler's layout: the span it belongs to (a call from its cpu_call to its
 * cpu_return, a scope from enter to exit, a kernel or copy ending at its stamp), with where it was
 * called from and in which scope.
 */
function profilerHover(doc: InferscopeDocument, e: Element): string {
  const s = doc.profiler;
  let of = spanOfEvent.get(s);
  if (!of) {
    of = new Int32Array(doc.parsed.events.length).fill(-1);
    for (let i = 0; i < s.length; i++) {
      of[s.first[i]] = i;
      if (s.last[i] >= 0) of[s.last[i]] = i;
    }
    spanOfEvent.set(s, of);
  }
  const o = e.obj ?? {};
  const type = str(o.type);
  const out = [`**${type ? escapeMarkdown(type, 40) : 'event'}** ${markdownCode(str(o.name) ?? '?', 80)} · event ${e.index}`, ''];
  const i = of[e.index];
  if (i < 0) return [...out, 'Not placed: no time, or a return or exit that closes nothing.'].join('\n');
  const k = s.kind[i];
  if (k === SpanKind.Instant) out.push(`at ${us(s.start[i])}`);
  else {
    out.push(`start ${us(s.start[i])}  `, `end ${us(s.end[i])}${s.last[i] < 0 && (k === SpanKind.Call || k === SpanKind.Scope) ? ' (never closed: the end of the trace)' : ''}  `, `duration ${us(s.end[i] - s.start[i])}`);
  }
  if (k === SpanKind.Call || k === SpanKind.Scope) {
    const other = s.first[i] === e.index ? s.last[i] : s.first[i];
    if (other >= 0) out.push('', `${s.first[i] === e.index ? 'closed by' : 'opened by'} event ${other}`);
  }
  if (k === SpanKind.Call) {
    const first = doc.parsed.events[s.first[i]].obj ?? {};
    const file = str(first.filename);
    if (file !== undefined) out.push('', `${markdownCode(file, 120)}:${num(first.lineno) ?? '?'}`);
    const callers: string[] = [];
    for (let c = s.caller[i]; c >= 0 && callers.length < MAX_PATH; c = s.caller[c]) callers.unshift(escapeMarkdown(s.name[c], 60));
    out.push('', `thread ${s.lane[i]}, depth ${s.depth[i]}${callers.length ? `: ${s.caller[i] >= 0 && callers.length === MAX_PATH ? '… › ' : ''}${callers.join(' › ')} › ${escapeMarkdown(s.name[i], 60)}` : ''}`);
  }
  if (k === SpanKind.Kernel) out.push('', `stream ${s.lane[i] === s.lane[i] ? s.lane[i] : '?'}`);
  if ((k === SpanKind.H2D || k === SpanKind.D2H) && s.bytes[i]) out.push('', `${s.bytes[i]} bytes`);
  const names: string[] = [];
  for (let c = s.scope[i]; c >= 0 && c !== i && names.length < MAX_PATH; c = s.scope[c] === c ? -1 : s.scope[c]) names.unshift(escapeMarkdown(s.name[c], 60));
  if (names.length) out.push('', `scope: ${names.join(' › ')}`);
  return out.join('\n');
}

export function eventHover(doc: InferscopeDocument, e: Element): string {
  if (doc.layout === 'profiler') return profilerHover(doc, e);
  const o = e.obj ?? {};
  const type = str(o.type);
  const out = [`**${type ? escapeMarkdown(type, 40) : 'event'}** ${markdownCode(str(o.name) ?? '?', 80)} · event ${e.index}`, ''];
  const t = timesOf(e);
  if (t.instant) {
    if (t.start === t.start) out.push(`at ${us(t.start)}`);
  } else {
    if (t.start === t.start) out.push(`start ${us(t.start)}  `);
    if (t.end === t.end) out.push(`end ${us(t.end)}  `);
    if (t.start === t.start && t.end === t.end) out.push(`duration ${us(t.end - t.start)}`);
  }
  const sc = innermostScope(doc, e.index);
  if (sc >= 0) out.push('', `scope: ${scopePath(doc, sc)}`);
  const m = (o.metadata && typeof o.metadata === 'object' ? o.metadata : {}) as Record<string, unknown>;
  if (type === 'gpu_kernel') {
    const g = dims(m.grid_dim);
    const b = dims(m.block_dim);
    const occ = num(m.occupancy);
    out.push('', `device ${num(m.device_id) ?? '?'}, stream ${num(m.stream_id) ?? '?'}`);
    if (g || b) out.push(`launch: grid ${g ?? '?'} × block ${b ?? '?'}  `);
    if (occ !== undefined) out.push(`occupancy ${Math.round(occ * 1000) / 10}%`);
  }
  return out.join('\n');
}

export function scopeHover(doc: InferscopeDocument, s: Element): string {
  const o = s.obj ?? {};
  const out = [`**scope** ${markdownCode(str(o.id) ?? `#${s.index}`, 80)}${str(o.name) ? ` · ${escapeMarkdown(str(o.name)!, 80)}` : ''}`, '', `path: ${scopePath(doc, s.index)}`];
  const r = validRange(s, doc.parsed.events.length);
  if (r) {
    const [a, b] = doc.times.range(r[0], r[1]);
    out.push('', `${r[1] - r[0] + 1} events (${r[0]}–${r[1]})`);
    if (a <= b) out.push('', `${us(a)} – ${us(b)}, span ${us(b - a)}`);
  } else out.push('', 'event_range is not a valid range of events');
  return out.join('\n');
}

/** The hover at `offset`: a scope reference or id, else the event or scope under the cursor. */
export function hoverAt(doc: InferscopeDocument, offset: number): { markdown: string; start: number; end: number } | undefined {
  const t = scopeTokenAt(doc, offset);
  if (t && t.kind !== 'range') {
    const i = doc.scopeIds.get(t.id);
    return { markdown: i === undefined ? `No scope has id ${markdownCode(t.id, 80)}` : scopeHover(doc, doc.parsed.scopes[i]), start: t.start, end: t.end };
  }
  if (t?.kind === 'range') {
    const e = doc.parsed.events[t.index];
    return { markdown: e ? eventHover(doc, e) : `No event ${t.index}: the trace has ${doc.parsed.events.length}`, start: t.start, end: t.end };
  }
  const hit = doc.elementAt(offset);
  if (!hit || !hit.e.obj) return undefined;
  return { markdown: hit.what === 'event' ? eventHover(doc, hit.e) : scopeHover(doc, hit.e), start: hit.e.start, end: hit.e.end };
}
