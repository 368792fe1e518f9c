// The editor's trace core as `bench/traceEdits.ts` drives it. Bundled alone from an older checkout
// (esbuild bench/editorCore.ts --bundle --platform=node --outfile=out/bench/editorCore.js), it is
// the baseline `NPU_BENCH_BASELINE` loads to print old against new in one run.
import { TraceDocument } from '../core/trace/document';
import { hoverAt } from '../core/trace/hover';
import { definitionAt, referencesAt } from '../core/trace/navigation';
import { documentSymbols } from '../core/trace/symbols';

export const editorCore = { parse: (text: string) => TraceDocument.parse(text), hoverAt, definitionAt, referencesAt, documentSymbols };
