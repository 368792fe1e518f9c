import { INFERSCOPE_CODES } from './codes';
import { COMPRESSED_TIMELINE_EDITOR, type FormatDescriptor, LineChecker } from '../formatDescriptor';
import { checkResult, defaultDiagnosticSettings } from '../common/settings';
import { WholeOrStreamed } from '../common/wholeOrStreamed';
import { StreamedCheck } from './streamCheck';
import { InferscopeDocument } from './document';
import { looksLikeInferscopeStart, looksLikeProfilerStart, topLevelInferscopeKind } from './detect';
import { InferscopeTimelineBuilder } from './timeline';
import { inferscopeDiff } from './diff';
import { JSON_LANGUAGES, jsonNamed } from '../fileHead';

/** Characters read whole, as one string; past this a trace is checked streamed (`streamCheck.ts`). */
const MAX_WHOLE = 256 << 20;

/**
 * An InferScope trace, analysis result or report is one JSON value: read whole, like a CMDQ.
 * Any `.json` is one too when its first line already shows a marker key (a compact file).
 */
export const inferscopeFormat: FormatDescriptor = {
  id: 'inferscope',
  displayName: 'InferScope',
  codes: INFERSCOPE_CODES,
  language: { aliases: ['InferScope', 'inferscope'], extensions: ['.inferscope.json'], filenamePatterns: ['*.analysis.json'] },
  // Gzipped too: the CLI reads it decompressed as it comes.
  names: ['*.inferscope.json', '*.analysis.json', '*.inferscope.json.gz', '*.analysis.json.gz'],
  customEditors: [COMPRESSED_TIMELINE_EDITOR],
  // Any other JSON by its top-level keys (InferScope's own `trace.json`).
  detect: (name, head) => jsonNamed(name) && (looksLikeInferscopeStart(head.firstLine) || looksLikeProfilerStart(head.firstLine) || topLevelInferscopeKind(head.text) !== undefined),
  contentDetection: { languages: JSON_LANGUAGES, setting: 'inferscope.detectInJson' },
  timeline: (opts) => new InferscopeTimelineBuilder(undefined, undefined, opts),
  parquetTables: 'inferscope',
  // An analysis result has no events, and the Parquet export reads a trace whole, not gunzipped.
  parquetNames: ['*.inferscope.json'],
  exportsChrome: true,
  // The Summary tab shows the builder's tables (`summaryTables.ts`).
  summary: true,
  createChecker(): LineChecker {
    // Joined, the lines could pass what one V8 string holds: past MAX_WHOLE they are checked streamed.
    const input = new WholeOrStreamed(MAX_WHOLE, () => new StreamedCheck());
    let lines = 0;
    const whole = () => InferscopeDocument.parse(input.text()!);
    return {
      add: (line) => input.feed(lines++ ? `\n${line}` : line),
      finish: () => (input.stream ? input.stream.finish({ ...defaultDiagnosticSettings, maxProblems: Infinity }).diagnostics : whole().allDiagnostics()),
      finishCapped: (settings, extra) => {
        const r = input.stream ? input.stream.finish(settings) : whole().capped(settings);
        return extra.length ? checkResult([...extra, ...r.diagnostics], settings) : r;
      },
    };
  },
  checkDocument: (text, settings) => InferscopeDocument.parse(text).capped(settings),
  // A 200k-event trace as Python pretty-prints it is ~115 MB; V8 holds a string of up to ~512 MB.
  maxDocumentBytes: MAX_WHOLE,
  // Past that the file is read line by line and checked streamed; one line must still fit a string.
  streamedLineBytes: MAX_WHOLE,
  // The CLI reads a plain file past that in 1 MB pieces: a compact one-line file is no longer one line too many.
  createChunkChecker: (settings) => new StreamedCheck(settings),
  // Read whole (up to maxDocumentBytes), as `analyze` reads a file of that size.
  diff: inferscopeDiff,
};
