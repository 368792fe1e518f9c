/**
 * Builds a timeline model off the extension host's thread (bundled as dist/timelineWorker.js).
 * Parsing a large trace takes seconds; the host must stay responsive, and cancelling is simply
 * terminating this worker.
 */
import { parentPort } from 'node:worker_threads';
import { serveJobs } from '../jobs/serveJobs';
import { BYTE_READ_OPTIONS, eachPiece } from '../io/byteFiles';
import { headOf } from '../io/firstLine';
import { forEachLine, forEachLineBytes } from '../io/lines';
import { statsOfFile } from '../io/statsOfFile';
import { splitLines } from '../../core/common/lines';
import { detectFormat, noTimelineReason } from '../../core/detectFormat';
import { HEAD_BYTES } from '../../core/fileHead';
import type { FormatDescriptor } from '../../core/formatDescriptor';
import { PREVIEW_LINES, type TimelineBuilder } from '../../core/timeline/builder';
import { modelBuffers } from '../../core/timeline/model';
import { MetricsCollector } from '../../core/trace/metrics/collector';
import { PacketLocator } from '../../core/perfetto/packetDetails';
import { buildFromText } from './timelineText';
import { exportRequest } from './timelineExport';
import type { BuildReport, WorkerRequest } from '../../protocol/timelineWorker';

const post = (r: BuildReport, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(r, transfer);

/** The lines of the request, in order: decoded from its bytes or streamed from disk with progress. */
async function eachLine(req: WorkerRequest, add: (l: string, n: number) => void, format?: FormatDescriptor): Promise<void> {
  if (req.kind === 'bytes') {
    const lines = splitLines(new TextDecoder().decode(req.bytes));
    for (let i = 0; i < lines.length; i++) add(lines[i], i);
    return;
  }
  // A streamed document (Chrome JSON is often one line of many MB) is read up to its format's line limit; others keep the default.
  await forEachLine(req.path, add, progress(), { maxLineBytes: format?.streamedLineBytes });
}

/** The request's format (`detectFormat`), from the head of its file or of its bytes. */
function formatOf(req: WorkerRequest): FormatDescriptor | undefined {
  return detectFormat(req.fileName, req.kind === 'bytes' ? new TextDecoder().decode(req.bytes.subarray(0, HEAD_BYTES)) : headOf(req.path));
}

/** Reports the bytes read from disk: a few progress messages per second is plenty. */
function progress(): (bytes: number) => void {
  let last = 0;
  return (bytes) => {
    if (bytes - last >= 8 << 20) {
      last = bytes;
      post({ kind: 'progress', bytesRead: bytes });
    }
  };
}

/** A binary trace's bytes (gunzipped), in pieces, with progress; `onPiece` returning false stops the reading. */
async function eachByte(req: WorkerRequest, onPiece: (b: Uint8Array) => void | boolean): Promise<void> {
  if (req.kind === 'bytes') {
    onPiece(req.bytes);
    return;
  }
  const report = progress();
  let read = 0;
  await eachPiece(req.path, (b) => {
    report((read += b.length));
    return onPiece(b);
  }, { truncated: false, garbageAt: undefined });
}

/**
 * The details of a binary trace's items: the packets holding the byte offsets, decoded here (the
 * worker is the one place a file's bytes are decoded), read from the start up to the last of them.
 */
async function packets(req: WorkerRequest & { packets: { offsets: number[] } }): Promise<void> {
  const loc = new PacketLocator(req.packets.offsets);
  await eachByte(req, (b) => {
    loc.feed(b);
    return !loc.done;
  });
  post({ kind: 'packets', fields: req.packets.offsets.map((o) => loc.fields(o)) });
}

async function build(req: WorkerRequest): Promise<void> {
  if (req.packets) {
    await packets({ ...req, packets: req.packets });
    return;
  }
  if (req.export) {
    post({ kind: 'exported', bytes: await exportRequest({ ...req, export: req.export }, (pass) => post({ kind: 'pass', pass }), progress()) });
    return;
  }
  if (req.stats) {
    // A file on disk is read as bytes, as `npu-trace stats` reads it (the same numbers, cheaper).
    if (req.kind === 'file') {
      post({ kind: 'stats', stats: await statsOfFile(req.path, req.stats, progress()) });
      return;
    }
    const c = new MetricsCollector(req.stats);
    await eachLine(req, (l) => c.addLine(l));
    post({ kind: 'stats', stats: c.finish() });
    return;
  }
  if (req.kind === 'file') {
    const model = await buildFromText(req.fileName, req.path, (preview) => post({ kind: 'preview', model: preview }, modelBuffers(preview)), progress());
    if (model) {
      post({ kind: 'done', model }, modelBuffers(model));
      return;
    }
  }
  const format = formatOf(req);
  const bytes = format?.byteTimeline?.(BYTE_READ_OPTIONS);
  if (bytes) {
    // A binary format (a Perfetto protobuf trace): its builder reads the bytes as they stream; no preview (a packet may close a slice opened anywhere before).
    await eachByte(req, (b) => bytes.feed(b));
    const model = bytes.finish();
    post({ kind: 'done', model }, modelBuffers(model));
    return;
  }
  // Made now, so the way of reading is known; it counts as started at the first line (an empty file says so).
  const made = format?.timeline?.();
  let builder: TimelineBuilder | undefined;
  const started = (): TimelineBuilder => {
    builder ??= made;
    if (!builder) throw new Error(noTimelineReason(req.fileName));
    return builder;
  };
  const previewAt = (n: number) => {
    if (n !== PREVIEW_LINES) return;
    const preview = builder!.finish(true);
    post({ kind: 'preview', model: preview }, modelBuffers(preview));
  };
  const readsBytes = made?.addLineBytes?.bind(made);
  if (req.kind === 'file' && readsBytes) {
    // A builder that reads bytes (an NPU trace: no JSON.parse per line, the Summary fed from the
    // same read) gets a file on disk as bytes, as `npu-trace check` and `stats` read it.
    await forEachLineBytes(req.path, (b, s, e, n, decode) => {
      started();
      readsBytes(b, s, e, n, decode);
      previewAt(n);
    }, () => {}, { maxLineBytes: format?.streamedLineBytes, onProgress: progress() });
  } else {
    await eachLine(req, (l, n) => {
      started().addLine(l, n);
      previewAt(n);
    }, format);
  }
  if (!builder) throw new Error(`${req.fileName} is empty.`);
  const model = builder.finish();
  post({ kind: 'done', model }, modelBuffers(model));
}

// Kept warm between jobs by the extension (runJob's keepWarm): a rebuild after an edit, a second timeline.
serveJobs<WorkerRequest>((req) => build(req).catch((e: unknown) => post({ kind: 'error', message: e instanceof Error ? e.message : String(e) })));
