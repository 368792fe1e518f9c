import type { Decoded } from '../core/kprof/decode';
import type { OpenedBuffer } from '../core/kprof/open';
import type { KprofSummary } from '../core/kprof/summary';
import type { TimelineModel } from '../core/timeline/model';
import { KprofFormatError } from '../core/kprof/errors';
import type { JobStep } from './job';

/** What the host asks the kprof worker (passed as workerData; `bytes` / `words` transferred). */
export type KprofWorkerRequest =
  /** A file's bytes: open it (`.npy`, `.npz`, `.bin`) and decode launch `launch`. */
  | { kind: 'open'; fileName: string; bytes: Uint8Array; launch: number; names?: readonly string[]; layout?: string }
  /** One launch already opened, again (other names, another launch): a copy of its words. */
  | { kind: 'decode'; words: Uint32Array; slots: number; names?: readonly string[]; launch: number; launches: number; layout?: string };

/** What a request gives: the buffer decoded, and what the panel shows of it (built there too). */
export interface DecodedView {
  opened?: OpenedBuffer;
  decoded: Decoded;
  model: TimelineModel;
  summary: KprofSummary;
}

export type KprofWorkerReport =
  | { kind: 'phase'; phase: 'reading' | 'decoding' }
  /** `opened` only for an `open` request; its words and the decoded arrays are transferred. */
  | ({ kind: 'done' } & DecodedView)
  /** `format`: the file is not a readable buffer (a KprofFormatError), as opposed to a failure. */
  | { kind: 'error'; format: boolean; message: string };

/** The decoded typed arrays, to transfer rather than copy. */
export function decodedArrays(d: Decoded): ArrayBufferView[] {
  return [d.laneRecords, d.laneFinalized, d.laneFlags, d.laneSm, d.laneRegions, d.regLane, d.regEvent, d.regStartSlot, d.regEndSlot, d.regStart, d.regEnd, d.instLane, d.instEvent, d.instSlot, d.instT];
}

/**
 * The buffers under these arrays worth transferring, each once: the large ones. A small array may
 * sit in Node's shared 8 KB Buffer pool, which must not be transferred (it would be detached for
 * every other user); copying a small one costs nothing.
 */
export function transferList(arrays: readonly ArrayBufferView[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const a of arrays) if (a.buffer.byteLength >= 1 << 16) out.add(a.buffer as ArrayBuffer);
  return [...out];
}

/** Which of the worker's reports is progress (its phase), the result, or a failure (node/jobs/runJob.ts). */
export function readKprofReport(r: KprofWorkerReport): JobStep<'reading' | 'decoding', DecodedView> {
  if (r.kind === 'phase') return { progress: r.phase };
  if (r.kind === 'done') return { result: { opened: r.opened, decoded: r.decoded, model: r.model, summary: r.summary } };
  return { error: r.format ? new KprofFormatError(r.message) : new Error(r.message) };
}
