// Tokenizes a file line by line as VS Code colours an editor's text: VS Code's own TextMate
// tokenizer (vscode-textmate with vscode-oniguruma, from the code-server the e2e tests and the
// `vscode` section install), with one of our grammars and with a grammar that is the built-in
// source.json (the base of our JSON formats' grammars before they went flat), alternated; prints
// the CPU ms of each run as JSON.
// Usage: node bench/tokenizeDriver.mjs <vscode dir> <our grammar> <file> <runs of each grammar>
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const [dir, ours, file, runsArg] = process.argv.slice(2);
const vscodeDir = resolve(dir);
const modules = join(vscodeDir, 'node_modules');
// VS Code's own copies, loaded from its folder.
const fromVscode = createRequire(join(modules, 'index.js'));
const tm = fromVscode('vscode-textmate');
const onig = fromVscode('vscode-oniguruma');
const jsonGrammar = join(vscodeDir, 'extensions/json/syntaxes/JSON.tmLanguage.json');

async function grammarOf(scopeName, grammar) {
  const reg = new tm.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (s) => new onig.OnigScanner(s), createOnigString: (s) => new onig.OnigString(s) }),
    loadGrammar: async (scope) => {
      if (scope === 'source.json') return tm.parseRawGrammar(readFileSync(jsonGrammar, 'utf8'), jsonGrammar);
      if (scope === scopeName) return tm.parseRawGrammar(grammar, 'grammar.json');
      return null;
    },
  });
  return reg.loadGrammar(scopeName);
}

function cpuMs(grammar, lines) {
  const t0 = process.cpuUsage();
  let state = tm.INITIAL;
  for (const l of lines) state = grammar.tokenizeLine2(l, state).ruleStack;
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

try {
  await onig.loadWASM(readFileSync(join(modules, 'vscode-oniguruma/release/onig.wasm')).buffer);
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const text = readFileSync(ours, 'utf8');
  const { scopeName } = JSON.parse(text);
  const flat = await grammarOf(scopeName, text);
  const json = await grammarOf(scopeName, JSON.stringify({ scopeName, patterns: [{ include: 'source.json' }] }));
  const out = { lines: lines.length, ours: [], sourceJson: [] };
  for (let i = 0; i < Number(runsArg); i++) {
    for (const k of i % 2 ? ['sourceJson', 'ours'] : ['ours', 'sourceJson']) out[k].push(cpuMs(k === 'ours' ? flat : json, lines));
  }
  process.stdout.write(JSON.stringify(out));
} catch (e) {
  process.stderr.write(String(e?.stack ?? e));
  process.exit(1);
}
