import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getLanguageService } from 'vscode-json-languageservice';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CmdqDocument } from '../core/cmdq/document';
import { renumberFix } from '../core/cmdq/fixes';
import { definitionAt, tokenAt } from '../core/cmdq/navigation';
import { entryHover } from '../core/cmdq/summary';
import { cmdqFull, cmdqIndent2, cmdqText, cmdqWithErrors } from '../test/gen/cmdqGen';
import { BEFORE_31, baselineModule } from './baseline';
import { fmt, loadNow, median, REPO, row, timed } from './util';

const SCHEMAS = resolve(REPO, 'schemas/cmdq');

/** vscode-json-languageservice with the same schema files, resolved from disk like VS Code does. */
function peer() {
  const ls = getLanguageService({
    schemaRequestService: (uri) => Promise.resolve(readFileSync(new URL(uri), 'utf8')),
    workspaceContext: { resolveRelativePath: (rel, resource) => new URL(rel, resource).toString() },
  });
  ls.configure({ validate: true, schemas: [{ uri: pathToFileURL(join(SCHEMAS, 'cmdq.schema.json')).toString(), fileMatch: ['*.cmdq.json'] }] });
  return async (doc: TextDocument) => ls.doValidation(doc, ls.parseJSONDocument(doc), { schemaValidation: 'error' });
}

export async function run(): Promise<void> {
  console.log('\n## cmdq (.cmdq.json)');
  const text = cmdqText(100_000);
  row('generated CMDQ', `100000 entries, ${fmt(text.length / 1e6, 1)} MB`);
  const validate = peer();
  await validate(TextDocument.create('file:///warm.cmdq.json', 'cmdq', 1, cmdqText(100))); // loads and compiles the schema

  const layouts: [string, string, string][] = [
    ['one entry per line', text, 'expect 0 / 0'],
    ['Python json.dump(indent=2)', cmdqIndent2(100_000), 'expect 0 / 0'],
    ['indent=2, a mistake in 1 entry of 100', cmdqWithErrors(100_000), '1000 entries with a mistake'],
    ['every field on every entry, json.dump(indent=2): the realistic queue (issue #31)', cmdqFull(100_000), 'expect 0 / 0'],
  ];
  for (const [name, t, expect] of layouts) {
    const d = TextDocument.create('file:///bench.cmdq.json', 'cmdq', 1, t);
    const ours: { wall: number; cpu: number }[] = [];
    const theirs: { wall: number; cpu: number }[] = [];
    let problems = -1;
    let peerProblems = -1;
    for (let r = 0; r < 3; r++) {
      const a = await timed(() => CmdqDocument.parse(t).allDiagnostics());
      problems = a.value.length;
      ours.push(a);
      const b = await timed(() => validate(d));
      peerProblems = b.value.length;
      theirs.push(b);
    }
    const ow = median(ours.map((x) => x.wall)), oc = median(ours.map((x) => x.cpu));
    const pw = median(theirs.map((x) => x.wall)), pc = median(theirs.map((x) => x.cpu));
    console.log(`  ${name} (${fmt(t.length / 1e6, 1)} MB):`);
    row('  full validation: parse + schema + graph checks (median of 3, wall / CPU)', `${fmt(ow)} / ${fmt(oc)} ms`, 'target ≤ 500 ms');
    row('  vscode-json-languageservice, same file and schema (wall / CPU)', `${fmt(pw)} / ${fmt(pc)} ms`);
    row('  speed-up over the peer (wall / CPU)', `${fmt(pw / ow, 2)}× / ${fmt(pc / oc, 2)}×`, 'target ≥ 4×');
    row('  problems found (ours / peer)', `${problems} / ${peerProblems}`, expect);
  }

  // Issue #31: the same full validation at the commit before its work, alternated with this
  // checkout's in this process, on the realistic queue and on one with a mistake in 1 entry of 100.
  const old = baselineModule<{ CmdqDocument: typeof CmdqDocument }>('core/cmdq/document.ts', BEFORE_31);
  if ('why' in old) console.log(`No ${BEFORE_31} to compare with: ${old.why}.`);
  else {
    for (const [name, t] of [['realistic queue', cmdqFull(100_000)], ['indent=2, a mistake in 1 entry of 100', cmdqWithErrors(100_000)]] as const) {
      const now: number[] = [];
      const before: number[] = [];
      let same = true;
      for (let r = 0; r < 5; r++) {
        for (const side of r % 2 ? ['before', 'now'] : ['now', 'before']) {
          const a = await timed(() => (side === 'now' ? CmdqDocument : old.CmdqDocument).parse(t).allDiagnostics());
          (side === 'now' ? now : before).push(a.cpu);
          if (side === 'now' && r === 0) same &&= JSON.stringify(a.value) === JSON.stringify(old.CmdqDocument.parse(t).allDiagnostics());
        }
      }
      row(`  ${name}: full validation, now / ${BEFORE_31} (median of 5, alternated, CPU)`, `${fmt(median(now))} / ${fmt(median(before))} ms`,
        `${fmt(median(now) / median(before), 2)}×; diagnostics ${same ? 'identical' : 'DIFFER'}; ${loadNow()}`);
    }
  }

  // Navigation on the validated 100k-entry document: ranges are scanned lazily, per entry.
  const m = CmdqDocument.parse(text);
  m.allDiagnostics();
  const lines = text.split('\n');
  const hover: number[] = [];
  const def: number[] = [];
  for (let k = 0; k < 50; k++) {
    const line = 3 + Math.floor((k / 50) * 99_000);
    const col = lines[line].indexOf('"deps_before": [') + 16;
    const off = m.offsetAt({ line, character: col });
    if (!tokenAt(m, off)) continue;
    hover.push((await timed(() => { const t = tokenAt(m, off)!; return entryHover(m, t.target); })).wall);
    def.push((await timed(() => definitionAt(m, off))).wall);
  }
  row('hover on a deps_before number (median of 50)', `${fmt(median(hover), 3)} ms`);
  row('definition from a deps_before number (median of 50)', `${fmt(median(def), 3)} ms`);
  // One keystroke in the middle of the 100k-entry document, as the server receives it: incremental
  // re-parse of the touched entry, then the diagnostics of the new version.
  const line = 50_003;
  const col = lines[line].indexOf('"deps_before": [') + 16;
  const off = m.offsetAt({ line, character: col });
  const edited = text.slice(0, off) + '1' + text.slice(off);
  const edits: number[] = [];
  let after = -1;
  for (let r = 0; r < 5; r++) {
    const base = CmdqDocument.parse(text);
    base.allDiagnostics();
    const e = await timed(() => base.update([{ start: line, end: line + 1, newCount: 1 }], edited).allDiagnostics());
    edits.push(e.wall);
    after = e.value.length;
  }
  row('one-character edit → new diagnostics, 100k entries (median of 5)', `${fmt(median(edits))} ms`, `${after} problems after the edit (unknown dep, the SPM race it opens)`);
  const broken = text.replace('"id": 10,', '"id": 11,');
  const fix = await timed(() => renumberFix(CmdqDocument.parse(broken)));
  row('renumber quick fix on the 100k file with one bad id (parse + edits)', `${fmt(fix.wall)} ms, ${fix.value?.edits.length ?? 0} edit(s)`);
}
