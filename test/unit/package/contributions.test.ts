import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { FORMATS } from '../../../core/formats';
import { COMPRESSED_TIMELINE_EDITOR, type FormatDescriptor } from '../../../core/formatDescriptor';
import { nameMatches } from '../../../core/fileHead';
import { LAYOUTS } from '../../../core/kprof/layouts';

const ROOT = resolve(__dirname, '../../..');

interface Gen {
  generate(pkgText: string, formats: readonly FormatDescriptor[]): string;
  whenOf(formats: readonly FormatDescriptor[], command: string, menu: string): string;
}
const gen = async () => (await import(join(ROOT, 'scripts/gen-contributions.mjs'))) as Gen;

describe('package.json contributions made from the format registry', () => {
  it('are what scripts/gen-contributions.mjs makes of core/formats.ts today (run `npm run gen:contributions`)', async () => {
    const text = readFileSync(join(ROOT, 'package.json'), 'utf8');
    assert.equal((await gen()).generate(text, FORMATS), text);
  });

  it('each format found by content in another language has its boolean setting, on by default', () => {
    const props = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { type: string; default: unknown }> } } }).contributes.configuration.properties;
    const settings = FORMATS.flatMap((f) => (f.contentDetection ? [f.contentDetection.setting] : []));
    assert.ok(settings.includes('nnapi.detectByContent'), settings.join());
    for (const s of settings) assert.deepEqual([props[`npuTrace.${s}`]?.type, props[`npuTrace.${s}`]?.default], ['boolean', true], s);
    // The extension must be running when such a document opens, to switch it.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { activationEvents: string[] };
    for (const lang of new Set(FORMATS.flatMap((f) => f.contentDetection?.languages ?? []))) assert.ok(pkg.activationEvents.includes(`onLanguage:${lang}`), lang);
  });

  it('the kernel-profiler layout setting offers auto and every layout the decoder knows', () => {
    const props = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { enum: string[]; default: string }> } } }).contributes.configuration.properties;
    assert.deepEqual(props['npuTrace.kprof.layout'].enum, ['auto', ...LAYOUTS.map((l) => l.id)]);
    assert.equal(props['npuTrace.kprof.layout'].default, 'auto');
  });

  it('every gzipped name of a text format with a timeline opens in the read-only timeline editor', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { customEditors: { viewType: string; selector: { filenamePattern: string }[]; priority: string }[] } };
    const ed = pkg.contributes.customEditors.find((e) => e.viewType === COMPRESSED_TIMELINE_EDITOR)!;
    assert.equal(ed.priority, 'default');
    const patterns = ed.selector.map((s) => s.filenamePattern);
    const gz = FORMATS.filter((f) => f.timeline && !f.binary).flatMap((f) => f.names.filter((n) => n.endsWith('.gz')));
    assert.ok(gz.length > 3);
    for (const n of gz) assert.ok(patterns.some((p) => nameMatches(p, n.replace(/\*/g, 'x'))), `${n} is opened by ${patterns.join(', ')}`);
    for (const f of FORMATS.filter((x) => x.names.some((n) => n.endsWith('.gz')) && x.timeline && !x.binary)) assert.ok(f.customEditors?.includes(COMPRESSED_TIMELINE_EDITOR), f.id);
  });

  it('every name of a binary format with a timeline opens in the read-only timeline editor (a Perfetto trace)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { customEditors: { viewType: string; selector: { filenamePattern: string }[] }[] } };
    const patterns = pkg.contributes.customEditors.find((e) => e.viewType === COMPRESSED_TIMELINE_EDITOR)!.selector.map((s) => s.filenamePattern);
    const binary = FORMATS.filter((f) => f.binary && f.byteTimeline);
    assert.ok(binary.some((f) => f.id === 'perfetto'));
    for (const f of binary) {
      assert.ok(f.customEditors?.includes(COMPRESSED_TIMELINE_EDITOR), f.id);
      for (const n of f.names) assert.ok(patterns.some((p) => nameMatches(p, n.replace(/\*/g, 'x'))), `${n} is opened by ${patterns.join(', ')}`);
    }
  });

  it('a format added to the registry gets its language and joins the menus of what it supports', async () => {
    const g = await gen();
    const extra: FormatDescriptor = {
      id: 'new-format', displayName: 'New', codes: [], names: ['*.new.json', '*.new.json.gz'], language: { aliases: ['New'], extensions: ['.new.json'] },
      timeline: () => { throw new Error('not built here'); },
    };
    const pkg = JSON.parse(g.generate(readFileSync(join(ROOT, 'package.json'), 'utf8'), [...FORMATS, extra])) as {
      contributes: { languages: { id: string; extensions: string[] }[] };
    };
    assert.deepEqual(pkg.contributes.languages.at(-1), { id: 'new-format', aliases: ['New'], extensions: ['.new.json'], configuration: './syntaxes/new-format.language-configuration.json' });
    const when = g.whenOf([...FORMATS, extra], 'npuTrace.showTimeline', 'editor/title');
    assert.match(when, /editorLangId == new-format/);
    assert.match(when, /\\\.new\\\.json\\\.gz/);
    assert.doesNotMatch(g.whenOf([...FORMATS, extra], 'npuTrace.showSummary', 'editor/title'), /new-format/);
  });

  it('the when-clause name expression matches exactly the names it stands for', async () => {
    const when = (await gen()).whenOf(FORMATS, 'npuTrace.showTimeline', 'explorer/context');
    const re = new RegExp(/resourceFilename =~ \/(.*)\/$/.exec(when)![1]);
    for (const n of ['run.jsonl.gz', 'perfetto_trace.json.gz', 'a.trace.json.gz', 'k.chrome_trace.gz']) assert.ok(re.test(n), n);
    for (const n of ['x.json', 'my_perfetto_trace.json.gz', 'a.trace.json']) assert.ok(!re.test(n), n);
  });
});
