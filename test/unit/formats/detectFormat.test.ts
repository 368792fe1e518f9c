// One detection for every consumer (issue #27.2, #28.1): every fixture, every example and the files
// the real writers name and lay out as they do are fed to `detectFormat` and to each consumer — the
// CLI's check (files given and a directory walked), the editor's language (its package.json
// associations, then content detection of a plain .json), the server's service, Show Timeline's
// builder, Check All's names and both exports — and all must agree.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { CHECK_ALL_NAMES } from '../../../client/checkAllResults';
import { SERVED_LANGUAGES } from '../../../client/languages';
import { buildSliced } from '../../../client/browser/slicedBuild';
import { headOf } from '../../../node/io/firstLine';
import { detectFormat, formatByName } from '../../../core/detectFormat';
import { baseName, jsonNamed, nameMatches } from '../../../core/fileHead';
import { FORMATS } from '../../../core/formats';
import { splitLines } from '../../../core/common/lines';
import { DocumentStore } from '../../../server/documents';
import { services } from '../../../server/services';
import { pytorchTrace } from '../../gen/chromeGen';
import { inferscopeTrace, pretty } from '../../gen/inferscopeGen';
import { systraceHtml } from '../../gen/systraceHtml';

const ROOT = resolve(__dirname, '../../..');
const cli = join(ROOT, 'dist/cli.js');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f)).filter((f) => statSync(f).isFile()).sort();
}

/** Event lines of a small Chrome trace, one line (Proton writes its `*.chrome_trace` so). */
const ONE_LINE_CHROME = JSON.stringify({
  displayTimeUnit: 'ns',
  traceEvents: [{ name: 'add_kernel', ph: 'X', ts: 0.5, dur: 1.25, pid: 'add_kernel Core0 CTA8', tid: 'warp 0 (line 0)' }],
});
/** A one-line Chrome trace exported from an NPU trace: "event_type" sits in its first events' args (commit d9d6b32). */
// What `adb shell atrace` prints: the NNAPI benchmark systrace of the fixtures.
const ATRACE = readFileSync(resolve(__dirname, '../../fixtures/nnapi/benchmark.systrace'), 'utf8');
const EXPORTED_NPU = JSON.stringify({ traceEvents: [{ name: 'cmd 1', ph: 'X', ts: 1, dur: 2, pid: 1, tid: 1, args: { event_type: 'CMD_START' } }] });

/**
 * Files as their writers name and lay them out (generated; the layouts follow PyTorch 2.x's
 * `export_chrome_trace`, Kineto's gzipped `*.pt.trace.json.gz`, HTA's `*.json.gz`, JAX's
 * `perfetto_trace.json.gz`, Triton Proton's `*.chrome_trace`, InferScope's `trace.json`), with the
 * format each must be.
 */
const WRITTEN: { name: string; bytes: Buffer; want: string | undefined }[] = [
  { name: 'pytorch/trace.json', bytes: Buffer.from(pytorchTrace(2)), want: 'chrome-trace' },
  { name: 'kineto/host_123.1700000000000.pt.trace.json.gz', bytes: gzipSync(pytorchTrace(2)), want: 'chrome-trace' },
  { name: 'hta/rank-0.json.gz', bytes: gzipSync(pytorchTrace(2)), want: 'chrome-trace' },
  { name: 'jax/plugins/profile/2026_01_01_00_00_00/perfetto_trace.json.gz', bytes: gzipSync(ONE_LINE_CHROME), want: 'chrome-trace' },
  { name: 'proton/matmul.chrome_trace', bytes: Buffer.from(ONE_LINE_CHROME), want: 'chrome-trace' },
  { name: 'inferscope/trace.json', bytes: Buffer.from(pretty(inferscopeTrace({ requests: 1 }))), want: 'inferscope' },
  { name: 'npu/exported.json', bytes: Buffer.from(EXPORTED_NPU), want: 'chrome-trace' },
  { name: 'npu/untyped.log', bytes: Buffer.from('{"event_type":"CMD_START","t_cycle":1,"cmd_id":1}\n'), want: 'npu-trace' },
  { name: 'other/package.json', bytes: Buffer.from('{\n  "name": "x"\n}\n'), want: undefined },
  { name: 'systrace/trace.html', bytes: Buffer.from(systraceHtml(ATRACE)), want: 'nnapi-systrace' },
  { name: 'atrace/trace.txt', bytes: Buffer.from(ATRACE), want: 'nnapi-systrace' },
  { name: 'other/index.html', bytes: Buffer.from('<!DOCTYPE html>\n<html><head><title>Results</title></head><body># tracer: none here</body></html>\n'), want: undefined },
];

/** A work folder holding every fixture, every example and the written files. */
function workFolder(): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'detect-'));
  const files: string[] = [];
  for (const src of [...filesUnder(join(ROOT, 'test/fixtures')), ...filesUnder(join(ROOT, 'examples'))]) {
    const to = join(dir, 'fixtures', src.slice(ROOT.length + 1));
    mkdirSync(resolve(to, '..'), { recursive: true });
    copyFileSync(src, to);
    files.push(to);
  }
  for (const w of WRITTEN) {
    const to = join(dir, 'written', w.name);
    mkdirSync(resolve(to, '..'), { recursive: true });
    writeFileSync(to, w.bytes);
    files.push(to);
  }
  return { dir, files: files.sort() };
}

const { dir, files } = workFolder();
const formatOf = new Map(files.map((f) => [f, detectFormat(f, headOf(f))]));
// `npu-trace check` checks text formats by lines and binary ones (a Perfetto trace) by bytes.
const checked = (f: string) => formatOf.get(f)?.createChecker !== undefined || formatOf.get(f)?.createByteChecker !== undefined;

/** The language VS Code gives a file by package.json's associations (extensions, patterns, first line). */
function editorLanguage(file: string): string | undefined {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { languages: { id: string; extensions?: string[]; filenamePatterns?: string[]; firstLine?: string }[] } };
  const name = baseName(file).toLowerCase();
  for (const l of pkg.contributes.languages) {
    if (l.extensions?.some((e) => name.endsWith(e)) || l.filenamePatterns?.some((p) => nameMatches(p, name))) return l.id;
  }
  // VS Code's own languages by extension come before any first-line pattern.
  if (/\.html?$/.test(name)) return 'html';
  if (/\.txt$/.test(name)) return 'plaintext';
  const first = splitLines(headOf(file).text)[0] ?? '';
  for (const l of pkg.contributes.languages) if (l.firstLine && new RegExp(l.firstLine).test(first)) return l.id;
  return /\.jsonc?$/.test(name) ? 'json' : undefined;
}

describe('detectFormat: what the real writers write', () => {
  for (const w of WRITTEN) {
    it(`${w.name} is ${w.want ?? 'no format'}`, () => {
      assert.equal(formatOf.get(join(dir, 'written', w.name))?.id, w.want);
    });
  }

  it('a name decides before the content; a .json is never an NPU trace by its content', () => {
    assert.equal(detectFormat('x.cmdq.json', ONE_LINE_CHROME)?.id, 'cmdq');
    assert.equal(detectFormat('run.jsonl', '')?.id, 'npu-trace');
    assert.equal(detectFormat('run.json', '{"event_type":"CMD_START","t_cycle":1}'), undefined);
    assert.equal(detectFormat('run.json.gz', '{"event_type":"CMD_START","t_cycle":1}'), undefined);
    assert.equal(detectFormat('notes.txt', ONE_LINE_CHROME), undefined);
    assert.equal(detectFormat('buf.kprof.bin')?.id, 'kprof');
  });

  it('names never overlap: each name glob of the registry is claimed by its own format only', () => {
    for (const f of FORMATS) for (const g of f.names) assert.equal(formatByName(`dir/${g.replace('*', 'x')}`), f, g);
  });
});

describe('every consumer agrees with detectFormat on every fixture and example', () => {
  it('npu-trace check: the files given are checked, or refused as of an unknown type, as detected', () => {
    const r = spawnSync(process.execPath, [cli, 'check', '--format', 'json', ...files], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const took = new Set((JSON.parse(r.stdout || '[]') as { file: string }[]).map((x) => x.file));
    for (const f of files) {
      if (checked(f)) assert.ok(took.has(f), `checked: ${f}\n${r.stderr}`);
      else assert.match(r.stderr, new RegExp(`${basename(f).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: unknown file type`), f);
    }
  });

  it('npu-trace check DIR: the directory walk takes exactly the checked files', () => {
    const r = spawnSync(process.execPath, [cli, 'check', '--format', 'json', dir], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const took = (JSON.parse(r.stdout || '[]') as { file: string }[]).map((x) => resolve(x.file)).sort();
    assert.deepEqual(took, files.filter(checked));
  });

  it('Check All: its names find every file the CLI checks by name, and only those', () => {
    for (const f of files) {
      const byName = formatByName(f);
      // Checked by lines or, for a binary format (a Perfetto trace), by bytes.
      assert.equal(CHECK_ALL_NAMES.some((g) => nameMatches(g, baseName(f))), (byName?.createChecker ?? byName?.createByteChecker) !== undefined, f);
      if (byName) assert.equal(formatOf.get(f), byName, f);
    }
  });

  it('the editor: its language (associations, then content detection of a .json) is the detected format, and the server serves it', () => {
    const store = new DocumentStore(services);
    for (const f of files) {
      const fmt = formatOf.get(f);
      if (/\.gz$/i.test(f) || fmt?.binary) continue;
      let lang = editorLanguage(f);
      // contentDetect.ts: a document opened as JSON is switched by detectFormat (settings on).
      if (lang !== undefined && fmt?.contentDetection?.languages.includes(lang) && (lang !== 'json' || jsonNamed(baseName(f)))) lang = fmt.id;
      if (fmt?.language && (lang === undefined || lang === 'json') && !fmt.contentDetection) continue; // by name only: a .jsonl VS Code leaves to JSON Lines
      const want = fmt?.language ? fmt.id : undefined;
      assert.equal(SERVED_LANGUAGES.includes(lang ?? '') ? lang : undefined, want, f);
      if (want) assert.ok(store.serviceFor(want), `served: ${want}`);
    }
  });

  it('Show Timeline: a file has a timeline exactly when its detected format has one', async () => {
    const none = { cancelled: () => false, pause: async () => {}, now: () => 0 };
    for (const f of files) {
      const fmt = formatOf.get(f);
      if (/\.gz$/i.test(f) || fmt?.binary) continue;
      const lines = splitLines(readFileSync(f, 'utf8'));
      let err = '';
      try {
        await buildSliced(f, lines.length, (i) => lines[i], none);
      } catch (e) {
        err = String(e);
      }
      assert.equal(!/No timeline for/.test(err), fmt?.timeline !== undefined, `${f}: ${err}`);
    }
  });

  it('export: `--to chrome-trace` refuses exactly the files without a timeline', () => {
    // One file of each detected format (and of none) besides the written ones: a CLI run each.
    const seen = new Set<string>();
    const some = files.filter((f) => f.includes('/written/') || (!seen.has(String(formatOf.get(f)?.id)) && seen.add(String(formatOf.get(f)?.id))));
    for (const f of some) {
      const fmt = formatOf.get(f);
      if (fmt?.binary) continue;
      const r = spawnSync(process.execPath, [cli, 'export', f, '--to', 'chrome-trace', '-o', join(dir, 'out.json')], { encoding: 'utf8' });
      assert.equal(!/no timeline for this file type/.test(r.stderr), fmt?.timeline !== undefined, `${f}: ${r.stderr}`);
    }
  });
});
