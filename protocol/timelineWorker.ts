import type { TimelineModel } from '../core/timeline/model';
import type { TraceStats } from '../core/trace/metrics/types';
import type { JobStep } from './job';

/** What the extension host asks the timeline worker to build (passed as workerData). */
export type BuildRequest =
  /** An edited document's text as UTF-8, transferred (not copied) to the worker. */
  | { kind: 'bytes'; fileName: string; bytes: Uint8Array }
  /** A file on disk (also a saved, unmodified document): streamed by the worker. */
  | { kind: 'file'; fileName: string; path: string };

/**
 * With `stats`, the worker builds no model: it only computes the trace metrics of the window
 * (a range summary, the status bar's utilization) with the core's collector, and reports 'stats'.
 */
export type WorkerRequest = BuildRequest & { stats?: { from?: number; to?: number }; export?: { out: string }; packets?: { offsets: number[] } };

/**
 * With `packets` (a binary trace's details pane), the worker builds no model: it reads the file to
 * the packets holding those byte offsets and reports each one's fields ('packets', in the order asked).
 */
export type PacketFields = [string, string][];

/** What the worker reports back. The model's buffers are transferred, not copied. */
export type BuildReport =
  | { kind: 'progress'; bytesRead: number }
  /** The first lines of a large file, drawn while the rest is read. */
  | { kind: 'preview'; model: TimelineModel }
  | { kind: 'done'; model: TimelineModel }
  | { kind: 'stats'; stats: TraceStats }
  /** With `export`: the Chrome JSON is written to `out`; `pass` 2 is the writing pass. */
  | { kind: 'exported'; bytes: number }
  | { kind: 'pass'; pass: 1 | 2 }
  | { kind: 'packets'; fields: PacketFields[] }
  | { kind: 'error'; message: string };

/** The progress a build reports before its result: bytes read, a preview model, the export's pass. */
export type BuildProgress = Extract<BuildReport, { kind: 'progress' | 'preview' | 'pass' }>;

/** A request's one result: the model, the window's metrics, or the bytes an export wrote. */
export type BuildResult = TimelineModel | TraceStats | number | PacketFields[];

/** Which of the worker's reports is progress, the result or a failure (node/jobs/runJob.ts). */
export function readBuildReport(r: BuildReport): JobStep<BuildProgress, BuildResult> {
  switch (r.kind) {
    case 'progress': case 'preview': case 'pass': return { progress: r };
    case 'done': return { result: r.model };
    case 'stats': return { result: r.stats };
    case 'exported': return { result: r.bytes };
    case 'packets': return { result: r.fields };
    case 'error': return { error: new Error(r.message) };
    default: { const never: never = r; return never; }
  }
}
