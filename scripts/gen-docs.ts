// Writes the tables of the manual (docs/) that list what the code has: each format's diagnostic
// codes (from the formats' code lists, the same the SARIF rules come from), the commands and the
// settings (from package.json). Only the text between a page's `<!-- generated: … -->` and
// `<!-- end generated -->` markers is rewritten. `npm run gen:docs`; test/unit/docs/docs.test.ts
// fails when a page is stale.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeDoc } from '../core/common/codeDoc';
import { FILE_CODES } from '../core/common/fileCodes';
import { FORMATS } from '../core/formats';

export const ROOT = join(__dirname, '..');

/** A table cell: one line, its `|` escaped so the row stays whole. */
const cell = (s: string) => s.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');

function codeTable(codes: readonly CodeDoc[]): string {
  return ['| code | severity | example → message |', '|---|---|---|', ...codes.map((c) => `| \`${c.code}\` | ${c.severity} | ${cell(c.example)} |`)].join('\n');
}

interface PackageJson {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, { type?: string | string[]; default?: unknown; description?: string; markdownDescription?: string; enum?: unknown[] }> };
    menus: Record<string, { command: string; when?: string }[]>;
  };
}

function commandTable(pkg: PackageJson): string {
  const palette = new Map(pkg.contributes.menus.commandPalette?.map((m) => [m.command, m.when]) ?? []);
  const rows = pkg.contributes.commands.map((c) => {
    const when = palette.get(c.command);
    const where = when === 'false' ? 'not in the palette (buttons, menus)' : when ? `\`${cell(when)}\`` : 'always';
    return `| ${cell(c.category ? `${c.category}: ${c.title}` : c.title)} | \`${c.command}\` | ${where} |`;
  });
  return ['| command | id | in the Command Palette when |', '|---|---|---|', ...rows].join('\n');
}

function settingTable(pkg: PackageJson): string {
  const rows = Object.entries(pkg.contributes.configuration.properties).map(([key, p]) => {
    const type = Array.isArray(p.type) ? p.type.join(' \\| ') : p.type ?? '';
    const values = p.enum ? ` (${p.enum.map((v) => `\`${String(v)}\``).join(', ')})` : '';
    return `| \`${key}\` | ${type}${cell(values)} | \`${cell(JSON.stringify(p.default))}\` | ${cell(p.markdownDescription ?? p.description ?? '')} |`;
  });
  return ['| setting | type | default | what it does |', '|---|---|---|---|', ...rows].join('\n');
}

/** What each generated block holds, by the name in its marker. */
export function blocks(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
  const m = new Map<string, string>();
  for (const f of FORMATS) m.set(`codes ${f.codes[0]?.code.split('.')[0] ?? f.id}`, codeTable(f.codes));
  m.set('codes file', codeTable(FILE_CODES));
  m.set('commands', commandTable(pkg));
  m.set('settings', settingTable(pkg));
  return m;
}

const MARKER = /(<!-- generated: ([a-z]+(?: [a-z-]+)?) \(npm run gen:docs\) -->\n)[^]*?(<!-- end generated -->)/g;

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const p = `${dir}/${e.name}`;
    return e.isDirectory() ? markdownUnder(p) : e.name.endsWith('.md') ? [p] : [];
  }).sort();
}


/** A page's text with every generated block rewritten; unknown block names throw. */
export function regenerate(text: string, b = blocks()): string {
  return text.replace(MARKER, (_all, open: string, name: string, close: string) => {
    const body = b.get(name);
    if (body === undefined) throw new Error(`no generated block named "${name}"`);
    return `${open}${body}\n${close}`;
  });
}

/** The block names a page's markers use. */
export function markersOf(text: string): string[] {
  return [...text.matchAll(MARKER)].map((x) => x[2]);
}

/** The manual's pages with generated blocks, found by their markers: a new format's page needs no entry here. */
export const PAGES = markdownUnder('docs').filter((p) => markersOf(readFileSync(join(ROOT, p), 'utf8')).length > 0);

if (require.main === module) {
  const b = blocks();
  for (const p of PAGES) {
    const file = join(ROOT, p);
    const old = readFileSync(file, 'utf8');
    const text = regenerate(old, b);
    if (text !== old) {
      writeFileSync(file, text);
      console.log(`wrote ${p}`);
    }
  }
}
