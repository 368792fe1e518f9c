import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';

// The browser bundles (scripts/build.mjs, package.json "browser") run in vscode.dev's web
// extension host and web workers, where a Node built-in does not exist: loading one fails there,
// not on a developer's desktop. They must not name any.
const ROOT = resolve(__dirname, '../../..');
const WEB_BUNDLES = ['dist/web/extension.js', 'dist/web/server.js'];
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** The Node built-ins a bundle loads: require("fs"), require('node:path'), import … from "os", import("zlib"). */
export function nodeBuiltinsIn(code: string): string[] {
  const found = new Set<string>();
  // Linear: a fixed keyword, then a quoted name without quotes in it.
  for (const m of code.matchAll(/\b(?:require|import)\s*\(\s*["']([^"'\n]{1,100})["']\s*\)|\bfrom\s*["']([^"'\n]{1,100})["']/g)) {
    const name = m[1] ?? m[2];
    if (BUILTINS.has(name) || BUILTINS.has(name.split('/')[0])) found.add(name);
  }
  return [...found];
}

test('the scan finds the forms a bundle loads a built-in with, and not other modules', () => {
  assert.deepEqual(nodeBuiltinsIn('var fs = require("fs"); const p = require(\'node:path\');'), ['fs', 'node:path']);
  assert.deepEqual(nodeBuiltinsIn('import { Worker } from "node:worker_threads"; await import("zlib"); require("fs/promises")'), ['node:worker_threads', 'zlib', 'fs/promises']);
  assert.deepEqual(nodeBuiltinsIn('require("vscode"); require("jsonc-parser"); x.required("fs")'), []);
});

test('the web bundles load no Node built-in', () => {
  for (const f of WEB_BUNDLES) {
    const file = join(ROOT, f);
    assert.ok(existsSync(file), `${f} is missing: run \`npm run build\` before the unit tests`);
    assert.deepEqual(nodeBuiltinsIn(readFileSync(file, 'utf8')), [], `${f} loads Node built-ins`);
  }
});

test('the web client requires only the vscode API', () => {
  const code = readFileSync(join(ROOT, 'dist/web/extension.js'), 'utf8');
  // Not inside a string: ajv's generated code names its runtime in one ('require("ajv/…")').
  const required = new Set([...code.matchAll(/(?<!['"\w.])require\(\s*"([^"\n]{1,100})"\s*\)/g)].map((m) => m[1]));
  assert.deepEqual([...required], ['vscode']);
});

test('package.json names the web client as its "browser" entry, and the .vsix allow-list ships dist/web', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { browser?: string };
  assert.equal(pkg.browser, './dist/web/extension.js');
  const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split('\n').map((l) => l.trim());
  assert.ok(ignore.includes('!dist/**/*.js') || ignore.includes('!dist/web/*.js'), '.vscodeignore keeps dist/web/*.js');
});

/** The commands client/browser/extension.ts registers; every other one needs Node. */
const WEB_COMMANDS = ['npuTrace.showTimeline', 'npuTrace.showSummary', 'npuTrace.nnapi.showTimingSummary', 'npuTrace.inferscope.analyzeTrace', 'npuTrace.inferscope.copyReportMarkdown'];

test('a command the browser entry lacks is hidden in every menu with !npuTrace.web; one it has is not', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { commands: { command: string }[]; menus: Record<string, { command: string; when?: string }[]> };
  };
  const web = readFileSync(join(ROOT, 'dist/web/extension.js'), 'utf8');
  for (const id of WEB_COMMANDS) assert.ok(web.includes(`"${id}"`), `${id} is not in the web bundle`);
  // Not isWeb: that is true in every browser workbench, also code-server's, whose Node extension
  // host runs the desktop client with all its commands. The browser client sets npuTrace.web.
  // (`true` is `!0` in the minified production build.)
  assert.ok(/"setContext",\s*"npuTrace\.web",\s*(?:true|!0)\b/.test(web), 'the web client sets npuTrace.web');
  for (const [menu, items] of Object.entries(pkg.contributes.menus)) {
    for (const item of items) {
      // `false`: never in the palette anywhere (the walkthrough's own commands).
      if (item.when === 'false') continue;
      const hidden = /^!npuTrace\.web && /.test(item.when ?? '');
      assert.equal(hidden, !WEB_COMMANDS.includes(item.command), `${menu}: ${item.command} when "${item.when}"`);
      // `a && b || c` would hide only `a && b`: a hidden clause with an || is parenthesised.
      if (hidden && item.when!.includes('||')) assert.match(item.when!, /^!npuTrace\.web && \(.*\)$/, `${menu}: ${item.command}`);
    }
  }
});
