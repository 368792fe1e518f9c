import { checkResult } from '../common/settings';
import { ANY_TIMELINE_EDITOR, COMPRESSED_TIMELINE_EDITOR, type FormatDescriptor } from '../formatDescriptor';
import { PERFETTO_CODES } from './codes';
import { looksLikePerfettoProto } from './detect';
import { PerfettoFile } from './file';
import { PerfettoTimelineBuilder } from './timeline';

/**
 * A Perfetto protobuf trace (`*.perfetto-trace`, `*.pftrace`, `*.perfetto`, gzipped too): binary,
 * read packet by packet (`reader.ts`). Any other file by its first bytes (`detect.ts`). Checked by
 * `npu-trace check` from its bytes; its timeline and the exports come from `timeline.ts`; its NNAPI
 * marks go to the NNAPI rules (`nnapi.ts`).
 */
export const perfettoFormat: FormatDescriptor = {
  id: 'perfetto',
  displayName: 'Perfetto trace',
  codes: PERFETTO_CODES,
  names: ['*.perfetto-trace', '*.pftrace', '*.perfetto', '*.perfetto.trace', '*.perfetto-trace.gz', '*.pftrace.gz', '*.perfetto.gz', '*.perfetto.trace.gz'],
  binary: true,
  // VS Code has no editor for these bytes: they open in the read-only timeline (built in the
  // timeline worker from `byteTimeline`), as gzipped text traces do; one of another name is
  // reopened in it by hand (ANY_TIMELINE_EDITOR) and told by its bytes there.
  customEditors: [COMPRESSED_TIMELINE_EDITOR, ANY_TIMELINE_EDITOR],
  // Without the bytes (a caller that has only the name) nothing else is known of it.
  detect: (name, head) => !!head.bytes?.length && looksLikePerfettoProto(name, head.bytes),
  createByteChecker: (opts) => {
    const f = new PerfettoFile(undefined, { maxProblems: opts?.maxProblems, inflate: opts?.inflate });
    return {
      feed: (b) => f.feed(b),
      finish: (settings) => {
        const r = f.end();
        return checkResult(r.diagnostics, settings, { count: r.dropped, hasError: r.droppedError });
      },
    };
  },
  byteTimeline: (opts) => new PerfettoTimelineBuilder(opts),
  parquetTables: 'timeline',
  exportsChrome: true,
  // The Summary tab shows the builder's tables (`summaryTables.ts`).
  summary: true,
};
