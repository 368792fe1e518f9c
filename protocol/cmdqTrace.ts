/**
 * The custom LSP notification behind the CMDQ ↔ trace join (README "Join with a trace"): the client
 * tells the server which trace to take a CMDQ layer's measured time from and how CMDQ layers name
 * the trace's. Declared once, as one `NotificationType` both sides use. The server reads the params
 * only through `parseCmdqTraceParams` (the map comes from a user setting: any JSON).
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { LayerStats } from '../core/trace/metrics/types';

export const CMDQ_TRACE_METHOD = 'npuTrace/cmdqTrace';

export interface CmdqTraceParams {
  /** URI of the trace chosen with "CMDQ: Choose Trace for Layer Times", null: the open NPU trace. */
  trace: string | null;
  /** `npuTrace.cmdq.layerMap`: CMDQ `layer_id` → the trace's `layer_id` (numbers as strings). */
  layerMap: Record<string, string>;
}

export const CmdqTraceNotification = new NotificationType<CmdqTraceParams>(CMDQ_TRACE_METHOD);

/** Layers in a map at most (the join itself keeps 10 000). */
export const MAX_LAYER_MAP = 10_000;

/**
 * A layer map from a setting or a file: string keys to string or finite-number values; anything
 * else is left out. Null when it is not an object at all.
 */
export function layerMapOf(raw: unknown): Record<string, string> | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  // No prototype: a layer named `__proto__` or `constructor` is a key like any other.
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  let n = 0;
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (n >= MAX_LAYER_MAP) break;
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) {
      out[k] = String(v);
      n++;
    }
  }
  return out;
}

export function parseCmdqTraceParams(raw: unknown): CmdqTraceParams | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  if (m.trace !== null && typeof m.trace !== 'string') return undefined;
  return { trace: m.trace, layerMap: layerMapOf(m.layerMap) ?? {} };
}

/** The measured layers of the trace the server joins with (the one the hover uses), for the graph's table. */
export interface CmdqLayerTimesResult {
  /** The trace's file name, null when no NPU trace is open (then `layers` is empty). */
  trace: string | null;
  layers: LayerStats[];
  /** Why there are no layers although a trace is open (too large for the editor's metrics). */
  note?: string;
  layerMap: Record<string, string>;
}
export const CmdqLayerTimesRequest = new RequestType<Record<string, never>, CmdqLayerTimesResult, void>('npuTrace/cmdqLayerTimes');

/** *Show Layer in Timeline*: the trace line of the first command of the layer of the CMDQ entry at `position`. */
export interface CmdqTimelineTargetParams { uri: string; position: { line: number; character: number } }
export type CmdqTimelineTarget = { ok: true; trace: string; line: number; layer: string } | { ok: false; reason: string };
export const CmdqTimelineTargetRequest = new RequestType<CmdqTimelineTargetParams, CmdqTimelineTarget, void>('npuTrace/cmdqTimelineTarget');

/** *Show in CMDQ* from the timeline: the first entry, in an open CMDQ, of the layer the trace calls `layer`. */
export interface CmdqEntryOfLayerParams { layer: string }
export type CmdqEntryOfLayer = { ok: true; uri: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } } | { ok: false; reason: string };
export const CmdqEntryOfLayerRequest = new RequestType<CmdqEntryOfLayerParams, CmdqEntryOfLayer, void>('npuTrace/cmdqEntryOfLayer');
