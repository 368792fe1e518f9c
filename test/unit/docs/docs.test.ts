// The manual and the other Markdown files: generated tables current, every relative link and
// image resolving, every format, command and setting documented.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { FORMATS } from '../../../core/formats';
import { blocks, markersOf, PAGES, regenerate, ROOT } from '../../../scripts/gen-docs';

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? markdownFiles(p) : n.endsWith('.md') ? [p] : [];
  });
}

const TOP = ['README.md', 'CHANGELOG.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'bench/RESULTS.md'].map((f) => join(ROOT, f)).filter(existsSync);
const ALL = [...TOP, ...markdownFiles(join(ROOT, 'docs'))];
const read = (f: string) => readFileSync(f, 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (h: string) => h.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

/** Links and images outside code: `[text](target)` and `![alt](target)`, fenced blocks and code spans left out. */
function links(md: string): string[] {
  const prose = md.replace(/^```[^]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

describe('the manual', () => {
  it('has its generated tables as the code and package.json say today (npm run gen:docs)', () => {
    const b = blocks();
    for (const p of PAGES) {
      const text = read(join(ROOT, p));
      assert.ok(markersOf(text).length > 0, `${p} has no generated block`);
      assert.ok(regenerate(text, b) === text, `${p} is stale: run npm run gen:docs`);
    }
  });

  it('finds every page with a generated block (each at least one), and every block it writes is on a page', () => {
    for (const p of ['docs/formats/npu-trace.md', 'docs/cli.md', 'docs/editor.md']) assert.ok(PAGES.includes(p), p);
    const used = new Set<string>();
    for (const f of ALL) {
      const names = markersOf(read(f));
      if (names.length) assert.ok(PAGES.includes(relative(ROOT, f)), `${relative(ROOT, f)} has generated blocks but is not in PAGES`);
      for (const n of names) used.add(n);
    }
    assert.deepEqual([...blocks().keys()].filter((k) => !used.has(k)), []);
  });

  it('has a page per format, linked from the README', () => {
    const readme = read(join(ROOT, 'README.md'));
    for (const f of FORMATS.map((x) => x.id)) {
      assert.ok(existsSync(join(ROOT, 'docs/formats', `${f}.md`)), `docs/formats/${f}.md`);
      assert.ok(readme.includes(`](docs/formats/${f}.md)`), `README links docs/formats/${f}.md`);
    }
  });

  it('documents every code, command and setting', () => {
    const text = ALL.map(read).join('\n');
    for (const f of FORMATS) for (const c of f.codes) assert.ok(text.includes(`| \`${c.code}\` |`), c.code);
    const pkg = JSON.parse(read(join(ROOT, 'package.json'))) as { contributes: { commands: { command: string }[]; configuration: { properties: Record<string, unknown> } } };
    for (const c of pkg.contributes.commands) assert.ok(text.includes(`\`${c.command}\``), c.command);
    for (const s of Object.keys(pkg.contributes.configuration.properties)) assert.ok(text.includes(`\`${s}\``), s);
  });
});

describe('Markdown links', () => {
  it('every relative link and image resolves, anchors included', () => {
    const bad: string[] = [];
    for (const f of ALL) {
      for (const target of links(read(f))) {
        if (/^(?:[a-z]+:|\/\/)/i.test(target)) continue;
        const [path, anchor] = target.split('#');
        const file = path ? join(dirname(f), decodeURIComponent(path)) : f;
        if (!existsSync(file)) {
          bad.push(`${relative(ROOT, f)}: ${target}`);
          continue;
        }
        if (anchor && file.endsWith('.md')) {
          const heads = new Set([...read(file).matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1])));
          if (!heads.has(anchor)) bad.push(`${relative(ROOT, f)}: ${target} (no such heading)`);
        }
      }
    }
    assert.deepEqual(bad, []);
  });

  it('finds links where they are and not in code', () => {
    assert.deepEqual(links('[a](x.md) `[b](y.md)` ![c](i.png "t")\n```\n[d](z.md)\n```\n'), ['x.md', 'i.png']);
  });
});
