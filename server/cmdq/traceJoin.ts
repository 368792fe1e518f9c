import type { Connection } from 'vscode-languageserver';
import { CmdqDocument } from '../../core/cmdq/document';
import { entryAnchor } from '../../core/cmdq/fields';
import { firstEntryOfTraceLayer, firstLineOfLayer, measuredLayerMarkdown, traceLayerOf } from '../../core/cmdq/graph/layerTimes';
import { markdownCode } from '../../core/common/escape';
import { TraceDocument } from '../../core/trace/document';
import { MAX_HOVER_STATS_LINES, statsOf } from '../../core/trace/groupHover';
import type { LayerStats, TraceStats } from '../../core/trace/metrics/types';
import {
  CmdqEntryOfLayerRequest, CmdqLayerTimesRequest, CmdqTimelineTargetRequest, CmdqTraceNotification, parseCmdqTraceParams,
  type CmdqEntryOfLayer, type CmdqLayerTimesResult, type CmdqTimelineTarget,
} from '../../protocol/cmdqTrace';
import type { DocumentStore } from '../documents';

/**
 * The CMDQ ↔ trace join on the server (README "Join with a trace"): a CMDQ entry's hover shows
 * its layer's measured time in an NPU trace the server holds — the one chosen with "CMDQ: Choose
 * Trace for Layer Times" when it is open, else the NPU trace opened last. The client sends the
 * choice and `npuTrace.cmdq.layerMap` with `CmdqTraceNotification`.
 */
let store: DocumentStore | undefined;
let chosen: string | null = null;
let layerMap: Record<string, string> = {};

export function registerCmdqTraceJoin(connection: Connection, s: DocumentStore): void {
  store = s;
  connection.onNotification(CmdqTraceNotification, (raw: unknown) => {
    const p = parseCmdqTraceParams(raw);
    if (!p) return;
    chosen = p.trace;
    layerMap = p.layerMap;
  });
  connection.onRequest(CmdqLayerTimesRequest, () => layerTimes());
  connection.onRequest(CmdqTimelineTargetRequest, (p) => timelineTarget(p?.uri, p?.position));
  connection.onRequest(CmdqEntryOfLayerRequest, (p) => entryOfLayer(p?.layer));
}

function nameOf(uri: string): string {
  const last = uri.slice(uri.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
const tooLarge = (doc: TraceDocument) => doc.lines.length > MAX_HOVER_STATS_LINES;

function layerTimes(): CmdqLayerTimesResult {
  const t = joinedTrace();
  if (!t) return { trace: null, layers: [], layerMap };
  if (tooLarge(t.doc)) return { trace: nameOf(t.uri), layers: [], layerMap, note: `the trace has more than ${MAX_HOVER_STATS_LINES} lines: \`npu-trace cmdq-graph --trace\` joins it` };
  return { trace: nameOf(t.uri), layers: statsOf(t.doc).layers, layerMap };
}

function timelineTarget(uri: unknown, pos: unknown): CmdqTimelineTarget {
  const e = typeof uri === 'string' ? store?.get(uri) : undefined;
  if (!(e?.model instanceof CmdqDocument)) return { ok: false, reason: 'the CMDQ is not open in the language server' };
  const p = pos as { line?: unknown; character?: unknown } | undefined;
  if (typeof p?.line !== 'number' || typeof p.character !== 'number') return { ok: false, reason: 'no position' };
  const model = e.model;
  const i = model.entryAt(model.offsetAt({ line: p.line, character: p.character }));
  if (i === undefined) return { ok: false, reason: 'the cursor is not on a CMDQ entry' };
  const layer = model.parsed.entries[i].layerId;
  if (typeof layer !== 'string') return { ok: false, reason: `entry ${i} has no layer_id` };
  const t = joinedTrace();
  if (!t) return { ok: false, reason: 'no NPU trace is open: open one or run "CMDQ: Choose Trace for Layer Times"' };
  const target = traceLayerOf(layer, layerMap);
  const line = firstLineOfLayer(t.doc.lines, target);
  if (line < 0) return { ok: false, reason: `${nameOf(t.uri)} has no CMD_ENQUEUE of layer ${target.slice(0, 80)}` };
  return { ok: true, trace: t.uri, line, layer: target };
}

function entryOfLayer(layer: unknown): CmdqEntryOfLayer {
  if ((typeof layer !== 'string' && typeof layer !== 'number') || !store) return { ok: false, reason: 'no layer' };
  const name = String(layer);
  for (const e of store.all()) {
    if (!(e.model instanceof CmdqDocument)) continue;
    const p = e.model.parsed;
    const i = firstEntryOfTraceLayer(p.entries, name, layerMap);
    if (i < 0) continue;
    const [a, b] = entryAnchor(p, p.entries[i]);
    return { ok: true, uri: e.doc.uri, range: { start: e.model.positionAt(a), end: e.model.positionAt(b) } };
  }
  return { ok: false, reason: `no open CMDQ has an entry of layer ${name.slice(0, 80)}` };
}

function joinedTrace(): { uri: string; doc: TraceDocument } | undefined {
  if (!store) return undefined;
  const pick = chosen !== null ? store.get(chosen) : undefined;
  if (pick?.model instanceof TraceDocument) return { uri: chosen!, doc: pick.model };
  let last: { uri: string; doc: TraceDocument } | undefined;
  for (const e of store.all()) if (e.model instanceof TraceDocument) last = { uri: e.doc.uri, doc: e.model };
  return last;
}

const byLayer = new WeakMap<TraceStats, Map<string, LayerStats>>();

function layersOf(s: TraceStats): Map<string, LayerStats> {
  let m = byLayer.get(s);
  if (!m) byLayer.set(s, (m = new Map(s.layers.map((l) => [l.layer_id, l]))));
  return m;
}

/** The hover section for entry `index`'s layer, or undefined when no NPU trace is open. */
export function measuredHover(model: CmdqDocument, index: number): string | undefined {
  const t = joinedTrace();
  if (!t) return undefined;
  const name = nameOf(t.uri);
  if (tooLarge(t.doc)) {
    return `**Measured** in ${markdownCode(name)}: _the trace has more than ${MAX_HOVER_STATS_LINES.toLocaleString('en-US')} lines; \`npu-trace cmdq-graph --trace\` joins it._`;
  }
  return measuredLayerMarkdown(model.parsed.entries[index].layerId, layersOf(statsOf(t.doc)), layerMap, name);
}
