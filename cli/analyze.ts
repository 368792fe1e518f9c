import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { escapeControl } from '../core/common/escape';
import { FORCE_OPTION, outputRefusal } from './outputPath';
import { analyze } from '../core/inferscope/analyze';
import { InferscopeDocument } from '../core/inferscope/document';
import { toHtml, toMarkdown, toReport } from '../core/inferscope/reportOutput';
import { inferscopeFormat } from '../core/inferscope/descriptor';
import type { AnalysisResult } from '../core/inferscope/analysisResult';
import { StreamedAnalysis } from '../core/inferscope/arrivalAnalysis';
import { InferscopeStream } from '../core/inferscope/stream';
import { WholeOrStreamed } from '../core/common/wholeOrStreamed';
import type { GzipEnd } from '../node/io/gunzip';
import { forEachText, textSizeHint } from '../node/io/lines';

export const ANALYZE_USAGE = '  npu-trace analyze [--json | --report md|html|json] [-o OUT [--force]] <trace.inferscope.json>\n';

class AnalyzeUsage extends Error {}

/**
 * `npu-trace analyze`: the §3.1 analysis of an InferScope trace (README "InferScope … Analysis"):
 * markdown by default, the analysis result with `--json`, a §3.2 report with `--report`. Exit 0
 * with the result (a trace with errors still gets one, with a note on stderr), 2 on unusable
 * arguments or a file that is not an InferScope trace.
 */
/**
 * A trace past what is read whole, or gzipped: read in pieces, streamed (none of it held as one
 * string, its events analyzed as they come: `arrivalAnalysis.ts`) when it is known or found to be
 * past the limit, else parsed whole once read.
 */
async function readInPieces(file: string, gzip: GzipEnd): Promise<{ doc: InferscopeDocument; streamed?: { broken: boolean; result(): AnalysisResult | Promise<AnalysisResult> } }> {
  const input = new WholeOrStreamed(inferscopeFormat.maxDocumentBytes!, () => new StreamedAnalysis());
  input.expect(textSizeHint(file));
  await forEachText(file, (t) => input.feed(t), { gzip });
  const s = input.stream;
  if (!s) return { doc: InferscopeDocument.parse(input.text()!) };
  const { doc, broken } = s.end();
  return { doc, streamed: { broken, result: () => s.result(doc) ?? keptAgain(file) } };
}

/**
 * Events too far out of the order of time for the analysis as they come: the file is read again
 * and its events kept to the end, as before.
 */
async function keptAgain(file: string): Promise<AnalysisResult> {
  const stream = new InferscopeStream();
  await forEachText(file, (t) => stream.feed(t), { gzip: { truncated: false, garbageAt: undefined } });
  return analyze(new InferscopeDocument(stream.end()));
}

export async function analyzeCommand(args: string[]): Promise<number> {
  let opts: { json: boolean; report?: 'md' | 'html' | 'json'; out?: string; file: string };
  try {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' }, report: { type: 'string' }, o: { type: 'string', short: 'o' }, ...FORCE_OPTION } });
    if (positionals.length !== 1) throw new AnalyzeUsage(positionals.length ? 'give exactly one file' : 'no file given');
    const r = values.report;
    if (r !== undefined && r !== 'md' && r !== 'html' && r !== 'json') throw new AnalyzeUsage(`--report takes md, html or json, got ${JSON.stringify(r)}`);
    if (r !== undefined && values.json) throw new AnalyzeUsage('give --json or --report, not both');
    const refused = values.o === undefined ? undefined : outputRefusal('-o', values.o, values.force);
    if (refused) throw new AnalyzeUsage(refused);
    opts = { json: !!values.json, report: r, out: values.o, file: positionals[0] };
  } catch (e) {
    process.stderr.write(`npu-trace analyze: ${escapeControl(e instanceof Error ? e.message : String(e))}\nUsage:\n${ANALYZE_USAGE}`);
    return 2;
  }
  const { file } = opts;
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) {
    process.stderr.write(`npu-trace analyze: ${escapeControl(file)}: no such file\n`);
    return 2;
  }
  // Past what is read whole (and past what one V8 string holds), the trace is read streamed: the
  // analysis needs the events' fields, not the text; the checks with positions are left to `check`.
  let streamed: { broken: boolean; result(): AnalysisResult | Promise<AnalysisResult> } | undefined;
  let doc: InferscopeDocument;
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  if (/\.gz$/i.test(file) || st.size > inferscopeFormat.maxDocumentBytes!) {
    try {
      ({ doc, streamed } = await readInPieces(file, gzip));
    } catch (e) {
      // A .gz that is not gzip: "incorrect header check" alone does not say which file.
      process.stderr.write(`npu-trace analyze: ${escapeControl(file)}: ${escapeControl(e instanceof Error ? e.message : String(e))}\n`);
      return 2;
    }
  } else {
    const text = readFileSync(file, 'utf8');
    doc = InferscopeDocument.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  }
  if (doc.kind !== 'trace' || doc.parsed.rootKind !== 'object') {
    process.stderr.write(`npu-trace analyze: ${escapeControl(file)}: not an InferScope trace (no "format_version" and "events")\n`);
    return 2;
  }
  const hasError = gzip.truncated || (streamed ? doc.parsed.syntax.length > 0 || streamed.broken : doc.capped({ severity: {}, maxProblems: 1 }).hasError);
  if (hasError) process.stderr.write(`npu-trace analyze: ${escapeControl(file)} has errors (see npu-trace check); the analysis counts what could be read\n`);
  const a = streamed ? await streamed.result() : analyze(doc);
  const created = doc.parsed.fields.get('trace_metadata')?.value as { timestamp_created?: unknown } | undefined;
  const stamp = typeof created?.timestamp_created === 'string' ? created.timestamp_created : '';
  const body = opts.json ? `${JSON.stringify(a, null, 2)}\n`
    : opts.report === 'json' ? `${JSON.stringify(toReport(a, stamp), null, 2)}\n`
      : opts.report === 'html' ? toHtml(a, file) : toMarkdown(a, file);
  if (opts.out) writeFileSync(opts.out, body);
  else process.stdout.write(body);
  return 0;
}
