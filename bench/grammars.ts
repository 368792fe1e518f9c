import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cmdqFull } from '../test/gen/cmdqGen';
import { traceText } from '../test/gen/genTrace';
import { profilerTrace } from '../test/gen/inferscopeProfiler';
import { kinetoTrainingTrace } from '../test/gen/kinetoTraining';
import { fmt, loadNow, median, range, REPO, row } from './util';

/** VS Code's own directory in the code-server the e2e tests and the `vscode` section install (its TextMate tokenizer and JSON grammar), or undefined. */
function codeServerVscode(): string | undefined {
  const base = join(REPO, '.vscode-test');
  if (!existsSync(base)) return undefined;
  return readdirSync(base).filter((d) => d.startsWith('code-server-')).map((d) => join(base, d, 'node_modules/code-server/lib/vscode'))
    .find((d) => existsSync(join(d, 'node_modules/vscode-textmate')));
}

/** CPU ms of VS Code's TextMate tokenizer over `file`, with our grammar and with the built-in source.json (bench/tokenizeDriver.mjs), `n` of each, alternated. */
function tokenizing(vscodeDir: string, grammar: string, file: string, n: number): { lines: number; ours: number[]; sourceJson: number[] } {
  const r = spawnSync(process.execPath, [join(REPO, 'bench/tokenizeDriver.mjs'), vscodeDir, join(REPO, grammar), file, String(n)], { encoding: 'utf8', timeout: 10 * 60_000 });
  if (r.status !== 0) throw new Error(`bench/tokenizeDriver.mjs failed (exit ${r.status ?? r.signal}): ${r.stderr}`);
  return JSON.parse(r.stdout) as { lines: number; ours: number[]; sourceJson: number[] };
}

/**
 * `npm run bench -- grammars`: what VS Code spends colouring an editor of each JSON format, on its
 * own tokenizer. VS Code tokenizes every line of a file up to 20 MB once it is open, whatever the
 * user does next (a Show Timeline runs beside it: the `vscode` section), so a grammar's cost per
 * line is paid on every big file. Ours are flat (single matches; syntaxes/); the baseline is the
 * built-in source.json the JSON formats' were built on before (the NPU trace's was flat, with a rule
 * per event kind and a token per separator: about three quarters of source.json's CPU).
 */
export async function run(): Promise<void> {
  console.log("\n## grammars: VS Code's TextMate tokenizer (vscode-textmate, vscode-oniguruma from code-server 4.100.3) over each format's file, as its editor is coloured");
  const vscodeDir = codeServerVscode();
  if (!vscodeDir) {
    console.log('  (no code-server install with vscode-textmate: run `node scripts/e2e.mjs` or `npm run bench -- vscode` first)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'npu-bench-grammars-'));
  try {
    const files: [string, string, string, string][] = [
      ['a PyTorch training trace of ~21k events, pretty-printed (the `vscode` section\'s)', 'training-21k.pt.trace.json', kinetoTrainingTrace({ events: 21_000 }).text, 'syntaxes/chrome-trace.tmLanguage.json'],
      ['a 50k-entry CMDQ, every field on every entry, Python json.dump(indent=2)', 'full-50k.cmdq.json', cmdqFull(50_000), 'syntaxes/cmdq.tmLanguage.json'],
      ["InferScope's profiler trace of GPT-2 (its own layout, indent=2)", 'gpt2.inferscope.json', profilerTrace({ steps: 30 }), 'syntaxes/inferscope.tmLanguage.json'],
      ["an NPU trace of 50k events (the generator's)", '50k.trace.jsonl', traceText({ events: 50_000 }), 'syntaxes/npu-trace.tmLanguage.json'],
    ];
    for (const [what, name, text, grammar] of files) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const t = tokenizing(vscodeDir, grammar, file, 4);
      row(`${what}, ${fmt(statSync(file).size / 1e6, 1)} MB, ${t.lines} lines: ${grammar.replace('syntaxes/', '')} vs the built-in source.json, CPU, median of ${t.ours.length} each, alternated (range)`,
        `${fmt(median(t.ours))} (${range(t.ours)}) vs ${fmt(median(t.sourceJson))} (${range(t.sourceJson)}) ms`, `ours ÷ source.json ${(median(t.ours) / median(t.sourceJson)).toFixed(2)}×; ${loadNow()}`);
    }
    // A hostile file: an unclosed string of escaped quotes on each line. A string rule that may
    // start at any quote searched from each of them to the end of the line (8-12 s for these 5
    // lines); one that starts only where no backslash precedes reads each line once.
    const hostile = join(dir, 'hostile.json');
    writeFileSync(hostile, `{"k": "${'\\"'.repeat(9000)}\n`.repeat(5));
    for (const grammar of files.map((f) => f[3])) {
      const t = tokenizing(vscodeDir, grammar, hostile, 3);
      row(`5 lines of an unclosed string of 9000 escaped quotes (hostile), 18 KB each: ${grammar.replace('syntaxes/', '')} vs the built-in source.json, CPU, median of ${t.ours.length} each, alternated (range)`,
        `${fmt(median(t.ours))} (${range(t.ours)}) vs ${fmt(median(t.sourceJson))} (${range(t.sourceJson)}) ms`, 'bounded: a line read once');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
