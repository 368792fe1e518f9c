// Writes the parts of package.json's `contributes` that follow from the format registry
// (core/formats.ts): the languages (ids, names, extensions, file name patterns, first lines) and the
// `when` clauses of the menu items that list formats (Show Timeline, Show Summary, the two
// exports, Compare with…, Pin as Baseline). The output is committed (VS Code reads package.json as it is); `test/unit/package/
// contributions.test.ts` fails when the registry changed and this was not re-run
// (`npm run gen:contributions`). Run with tsx (the registry is TypeScript).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');

/**
 * The menu items whose `when` lists formats: which formats (a descriptor predicate), whether they
 * are hidden in the browser (they need worker threads), and whether the formats' custom editors
 * count (an export of a kernel-profiler buffer runs from its editor; the timeline of a .gz trace).
 */
export const FORMAT_MENUS = {
  'npuTrace.showTimeline': { has: (f) => f.timeline !== undefined, desktopOnly: false, editors: true },
  'npuTrace.showSummary': { has: (f) => f.summary === true, desktopOnly: false, editors: true },
  'npuTrace.exportChromeTrace': { has: (f) => f.exportsChrome === true, desktopOnly: true, editors: true },
  'npuTrace.exportParquet': { has: (f) => f.parquetTables !== undefined && !f.binary, desktopOnly: true, editors: false },
  // Compare with… reads both files in a worker thread (client/diff/).
  'npuTrace.compareWith': { has: (f) => f.diff !== undefined && !f.diff.unsupported, desktopOnly: true, editors: true },
  // Pin as Baseline: the run the Summary of the format's other runs is compared with (client/diff/baseline.ts).
  'npuTrace.pinBaseline': { has: (f) => f.diff !== undefined && !f.diff.unsupported, desktopOnly: true, editors: true },
};

const escapeRegExp = (s) => s.replace(/[.+?^${}()|[\]\\/]/g, '\\$&');

/** A name glob as a regular expression (without its `$`) on the file's base name. */
function globRegExp(glob) {
  const body = glob.split('*').map(escapeRegExp).join('.*');
  return glob.startsWith('*') ? body.slice(2) : `^${body}`;
}

/** Whether the editor already opens files of this name in the format's language. */
function covered(f, glob) {
  const l = f.language;
  if (!l) return false;
  return l.extensions.some((e) => glob === `*${e}`) || (l.filenamePatterns ?? []).includes(glob);
}

/** The `contributes.languages` entries: one per format with a language, in registry order. */
export function languagesOf(formats) {
  return formats.filter((f) => f.language).map((f) => {
    const l = f.language;
    const entry = { id: f.id, aliases: [...l.aliases], extensions: [...l.extensions] };
    if (l.filenamePatterns) entry.filenamePatterns = [...l.filenamePatterns];
    if (l.firstLine) entry.firstLine = l.firstLine;
    entry.configuration = `./syntaxes/${f.id}.language-configuration.json`;
    return entry;
  });
}

/** The `when` of a menu item of `command` in `menu` (the explorer asks for the resource's language). */
export function whenOf(formats, command, menu) {
  const m = FORMAT_MENUS[command];
  const fs = formats.filter(m.has);
  const key = menu === 'explorer/context' ? 'resourceLangId' : 'editorLangId';
  const parts = [
    ...(m.editors ? [...new Set(fs.flatMap((f) => f.customEditors ?? []))].map((e) => `activeCustomEditorId == ${e}`) : []),
    ...fs.filter((f) => f.language).map((f) => `${key} == ${f.id}`),
  ];
  // Files the editor does not open in the format's language (gzipped, or taken by name only): one regular expression.
  const names = fs.filter((f) => !f.binary).flatMap((f) => f.names.filter((g) => !covered(f, g)).map(globRegExp));
  if (names.length) parts.push(`resourceFilename =~ /(${names.join('|')})$/`);
  return m.desktopOnly ? `!npuTrace.web && (${parts.join(' || ')})` : parts.join(' || ');
}

/**
 * package.json with its registry-made parts rewritten in place: the rest of the file (its hand
 * formatting included) is left as it is.
 */
export function generate(pkgText, formats) {
  const pkg = JSON.parse(pkgText);
  // The languages array, a child of `contributes` (four spaces in), replaced whole.
  const open = pkgText.indexOf('\n    "languages": [');
  const close = pkgText.indexOf('\n    ]', open);
  if (open < 0 || close < 0) throw new Error('package.json: no contributes.languages array');
  const langs = JSON.stringify(languagesOf(formats), null, 2).replace(/\n/g, '\n    ');
  let out = `${pkgText.slice(0, open)}\n    "languages": ${langs}${pkgText.slice(close + 6)}`;
  // Each menu item's `when`, found in file order after its `"command"` within `menus`.
  let at = out.indexOf('\n    "menus": {');
  if (at < 0) throw new Error('package.json: no contributes.menus');
  for (const [menu, items] of Object.entries(pkg.contributes.menus)) {
    for (const item of items) {
      at = out.indexOf(`"command": ${JSON.stringify(item.command)}`, at);
      // An item hidden everywhere (`false`: run from a walkthrough link only) stays so.
      if (!FORMAT_MENUS[item.command] || item.when === undefined || item.when === 'false') continue;
      const old = `"when": ${JSON.stringify(item.when)}`;
      const w = out.indexOf(old, at);
      out = `${out.slice(0, w)}"when": ${JSON.stringify(whenOf(formats, item.command, menu))}${out.slice(w + old.length)}`;
    }
  }
  return out;
}

export async function registry() {
  return (await import(pathToFileURL(join(ROOT, 'core/formats.ts')).href)).FORMATS;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const file = join(ROOT, 'package.json');
  const out = generate(readFileSync(file, 'utf8'), await registry());
  writeFileSync(file, out);
  console.log('wrote package.json contributions from core/formats.ts');
}
