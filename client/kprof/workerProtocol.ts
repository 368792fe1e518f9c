import { decode, type Decoded } from '../../core/kprof/decode';
import { detectLayout } from '../../core/kprof/layouts';
import { openBuffer, type OpenedBuffer } from '../../core/kprof/open';
import { kprofSummary, type KprofSummary } from '../../core/kprof/summary';
import type { ProfBuffer } from '../../core/kprof/words';
import { kprofTimeline } from '../../core/kprof/timeline';
import type { TimelineModel } from '../../core/timeline/model';
import type { InflateRaw } from '../../core/kprof/zip';

/** What the host asks the kprof worker (passed as workerData; `bytes` / `words` transferred). */
export type KprofWorkerRequest =
  /** A file's bytes: open it (`.npy`, `.npz`, `.bin`) and decode launch `launch`. */
  | { kind: 'open'; fileName: string; bytes: Uint8Array; launch: number; names?: readonly string[] }
  /** One launch already opened, again (other names, another launch): a copy of its words. */
  | { kind: 'decode'; words: Uint32Array; slots: number; names?: readonly string[]; launch: number; launches: number };

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
  return [d.laneRecords, d.laneFinalized, d.laneFlags, d.laneRegions, d.regLane, d.regEvent, d.regStartSlot, d.regEndSlot, d.regStart, d.regEnd, d.instLane, d.instEvent, d.instSlot, d.instT];
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

/** One request, decoded here (in the worker, or in-process when the worker is not built). */
export function runRequest(req: KprofWorkerRequest, inflate: InflateRaw, onPhase?: (phase: 'reading' | 'decoding') => void): DecodedView {
  let opened: OpenedBuffer | undefined;
  let buf: ProfBuffer;
  if (req.kind === 'open') {
    onPhase?.('reading');
    opened = openBuffer(req.fileName, req.bytes, inflate);
    buf = opened.launches[Math.min(req.launch, opened.launches.length - 1)];
  } else buf = { words: req.words, slots: req.slots };
  onPhase?.('decoding');
  const decoded = decode(buf, { layout: detectLayout(buf.words, buf.slots), names: req.names ?? opened?.names });
  // The timeline model and the statistics cost about as much as the decode: built here too.
  const launches = opened ? opened.launches.length : req.kind === 'decode' ? req.launches : 1;
  return { opened, decoded, model: kprofTimeline(decoded), summary: kprofSummary(decoded, req.launch, launches) };
}
