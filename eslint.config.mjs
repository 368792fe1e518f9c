import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const editorApis = ['vscode', 'vscode-languageserver', 'vscode-languageserver/*', 'vscode-languageclient', 'vscode-languageclient/*', 'vscode-languageserver-textdocument'];

/**
 * One `no-restricted-imports` block per layer: the folders it must not import. ESLint takes one
 * value of a rule per file (the last block that matches), so core/, which has its own block, gets
 * its ban of node/ there.
 */
function layerRules(layers) {
  return layers.map((l) => ({
    files: l.files,
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: bannedGroup(l.banned), message: l.message }] }] },
  }));
}

/** `../cli`, `../../cli/x`, `../../../cli/x/y`… for each banned folder. */
function bannedGroup(folders) {
  return folders.flatMap((f) => ['', '../', '../../', '../../../'].flatMap((up) => [`../${up}${f}`, `../${up}${f}/*`, `../${up}${f}/**`]));
}

/** What core/ may not import: the editor, Node I/O, the adapters, the Node host layer. */
const coreRestricted = {
  paths: [...editorApis.filter((n) => !n.includes('*')), 'fs', 'path', 'os', 'child_process', 'node:fs', 'node:path', 'node:os', 'node:child_process'],
  patterns: [{ group: editorApis.filter((n) => n.includes('*')), message: 'core/ must not depend on the editor.' },
    { group: ['../server/*', '../client/*', '../webview/*', '../../server/*', '../../client/*', '../../webview/*'], message: 'core/ must not depend on adapters.' },
    { group: bannedGroup(['node']), message: 'core/ is pure: it must not import the Node host layer (node/).' }],
};

/** The folders that each hold one format. */
const formatFolders = ['cmdq', 'trace', 'chrome', 'inferscope', 'nnapi', 'kprof'];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test/fixtures/**', 'bench/.data/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The domain stays pure: no editor API, no DOM, no Node I/O. Everything else adapts it.
    files: ['core/**/*.ts'],
    languageOptions: { globals: { ...globals.es2022 } },
    rules: {
      'no-restricted-imports': ['error', coreRestricted],
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'HTMLElement', 'acquireVsCodeApi', 'process', 'require'],
    },
  },
  // One format's folder does not import another's: what two formats share lives in core/json
  // (JSON reading), core/common (interval algebra, escaping, diagnostics) or core/timeline's model.
  // ESLint keeps one no-restricted-imports per file, so each block repeats core/'s restrictions.
  ...formatFolders.map((f) => ({
    files: [`core/${f}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', {
        paths: coreRestricted.paths,
        patterns: [...coreRestricted.patterns, {
          regex: `^(\\.\\./)+(${formatFolders.filter((g) => g !== f).join('|')})(/|$)`,
          message: `core/${f}/ must not import another format's folder: move what is shared to core/json, core/common or core/timeline's model.`,
        }],
      }],
    },
  })),
  // The layers (issue #28): client and cli are two front ends of node/, the Node host layer; node/
  // serves both and knows neither; core/ knows no host (its block above). hosts/ is where client and
  // server meet in one bundle.
  ...layerRules([
    { files: ['client/**/*.ts'], banned: ['cli', 'server'], message: 'client/ must not import cli/ (move what both need to node/) or server/ (hosts/ wires them together).' },
    { files: ['cli/**/*.ts'], banned: ['client', 'server'], message: 'cli/ is the command line only: it must not import the extension (client/) or the language server (server/).' },
    { files: ['node/**/*.ts'], banned: ['client', 'server', 'cli'], message: 'node/ serves the CLI and the extension: it must not import either, nor the language server.' },
  ]),
  {
    files: ['webview/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
