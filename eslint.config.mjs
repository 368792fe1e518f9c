import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const editorApis = ['vscode', 'vscode-languageserver', 'vscode-languageserver/*', 'vscode-languageclient', 'vscode-languageclient/*', 'vscode-languageserver-textdocument'];

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
      'no-restricted-imports': ['error', {
        paths: [...editorApis.filter((n) => !n.includes('*')), 'fs', 'path', 'os', 'child_process', 'node:fs', 'node:path', 'node:os', 'node:child_process'],
        patterns: [{ group: editorApis.filter((n) => n.includes('*')), message: 'core/ must not depend on the editor.' },
          { group: ['../server/*', '../client/*', '../webview/*', '../../server/*', '../../client/*', '../../webview/*'], message: 'core/ must not depend on adapters.' }],
      }],
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'HTMLElement', 'acquireVsCodeApi', 'process', 'require'],
    },
  },
  {
    files: ['webview/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
