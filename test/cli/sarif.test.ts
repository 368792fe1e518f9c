// `npu-trace check --format sarif` against the official SARIF 2.1.0 JSON Schema (the copy
// @microsoft/jest-sarif ships, validated as that package does: ajv 6 with the draft-04 meta-schema).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILE_CODES } from '../../core/common/fileCodes';
import { FORMATS } from '../../core/formats';
import { RULES } from '../../cli/sarifRules';
import { CLI, ROOT, runCli } from './run';

interface Region { startLine: number; startColumn: number; endLine: number; endColumn: number }
interface Location { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region?: Region } }
interface Result { ruleId: string; ruleIndex?: number; level: string; message: { text: string }; locations: Location[]; relatedLocations?: (Location & { id: number; message: { text: string } })[] }
interface Rule { id: string; shortDescription: { text: string }; help: { text: string; markdown: string }; defaultConfiguration: { level: string } }
interface Log {
  version: string;
  runs: { tool: { driver: { name: string; rules: Rule[] } }; originalUriBaseIds: Record<string, { uri: string }>; results: Result[]; invocations: { executionSuccessful: boolean; toolExecutionNotifications?: { message: { text: string } }[] }[] }[];
}
interface JsonFile { file: string; diagnostics: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; code: string; message: string }[] }

type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };

function sarifValidator(): Validate {
  const pkg = createRequire(require.resolve('@microsoft/jest-sarif/package.json'));
  const Ajv = pkg('ajv') as new (o: object) => { addMetaSchema(s: object): void; compile(s: object): Validate };
  const ajv = new Ajv({ schemaId: 'auto', validateSchema: false, allErrors: true });
  ajv.addMetaSchema(pkg('ajv/lib/refs/json-schema-draft-04.json') as object);
  return ajv.compile(pkg('./lib/schemas/sarif-2.1.0-rtm.5.json') as object);
}

let dir = '';
let validate: Validate;
before(() => {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  dir = mkdtempSync(join(tmpdir(), 'sarif-cli-'));
  validate = sarifValidator();
});
after(() => rmSync(dir, { recursive: true, force: true }));

const FILES = ['examples/faulty.trace.jsonl', 'examples/faulty.inferscope.json', 'examples/nnapi-nesting.systrace', 'test/fixtures/cmdq/dep-cycle.cmdq.json', 'test/fixtures/chrome'];

function valid(log: unknown) {
  assert.ok(validate(log), `not valid SARIF 2.1.0: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}`);
}

describe('npu-trace check --format sarif', () => {
  it('is valid SARIF 2.1.0 and has one result per diagnostic, at the JSON output\'s ranges plus one', async () => {
    const s = await runCli(['check', '--format', 'sarif', ...FILES]);
    const j = await runCli(['check', '--format', 'json', ...FILES]);
    assert.equal(s.code, 1, s.stderr);
    const log = JSON.parse(s.stdout) as Log;
    valid(log);
    assert.equal(log.version, '2.1.0');
    assert.equal(log.runs.length, 1);
    const run = log.runs[0];
    assert.deepEqual(run.originalUriBaseIds, { SRCROOT: { uri: `file://${ROOT}/` } });
    const expected = (JSON.parse(j.stdout) as JsonFile[]).flatMap((f) => f.diagnostics.map((d) => ({
      uri: f.file.replace(/\\/g, '/'),
      ruleId: d.code,
      region: { startLine: d.range.start.line + 1, startColumn: d.range.start.character + 1, endLine: d.range.end.line + 1, endColumn: d.range.end.character + 1 },
    })));
    assert.ok(expected.length > 50, `only ${expected.length} diagnostics`);
    assert.deepEqual(run.results.map((r) => ({ uri: r.locations[0].physicalLocation.artifactLocation.uri, ruleId: r.ruleId, region: r.locations[0].physicalLocation.region })), expected);
    for (const r of run.results) {
      assert.equal(r.locations[0].physicalLocation.artifactLocation.uriBaseId, 'SRCROOT');
      assert.equal(run.tool.driver.rules[r.ruleIndex!].id, r.ruleId, `${r.ruleId} has no rule`);
    }
  });

  it('every fixture and example (all formats, a capped list, related information) gives valid SARIF', async () => {
    const r = await runCli(['check', '--format', 'sarif', 'test/fixtures', 'examples']);
    assert.equal(r.code, 1, r.stderr);
    const log = JSON.parse(r.stdout) as Log;
    valid(log);
    const codes = new Set(log.runs[0].results.map((x) => x.ruleId.split('.')[0]));
    assert.deepEqual([...codes].sort(), ['chrome', 'cmdq', 'inferscope', 'nnapi', 'too-many-problems', 'trace']);
    assert.ok(log.runs[0].results.some((x) => x.relatedLocations?.length));
  });

  it('has related locations from related information (a CMDQ dependency cycle)', async () => {
    const r = await runCli(['check', '--format', 'sarif', 'test/fixtures/cmdq/dep-cycle.cmdq.json']);
    const cycle = (JSON.parse(r.stdout) as Log).runs[0].results.filter((x) => x.ruleId === 'cmdq.dep-cycle');
    assert.ok(cycle.length >= 1);
    const rel = cycle[0].relatedLocations ?? [];
    assert.deepEqual(rel.map((x) => [x.id, x.message.text, x.physicalLocation.region?.startLine]), [[1, '4 waits for 3', 8], [2, '3 waits for 2', 7]]);
  });

  it('has a rule for every code of the checked formats\' code lists, with its example as help and its default level', async () => {
    const r = await runCli(['check', '--format', 'sarif', 'examples/faulty.trace.jsonl']);
    const rules = (JSON.parse(r.stdout) as Log).runs[0].tool.driver.rules;
    const codes = new Set([...FORMATS.flatMap((f) => f.codes), ...FILE_CODES].map((c) => c.code));
    assert.deepEqual(rules.map((x) => x.id).sort(), [...codes].sort());
    const byId = new Map(rules.map((x) => [x.id, x]));
    assert.deepEqual(byId.get('trace.time-backwards'), {
      id: 'trace.time-backwards',
      shortDescription: { text: 'NPU trace: time backwards' },
      fullDescription: { text: 'a line with "t_cycle": 210 after one at 260 → t_cycle 210 is lower than 260 on line 5: events should be in time order' },
      help: {
        text: 'a line with "t_cycle": 210 after one at 260 → t_cycle 210 is lower than 260 on line 5: events should be in time order',
        markdown: 'a line with `"t_cycle": 210` after one at 260 → *t_cycle 210 is lower than 260 on line 5: events should be in time order*',
      },
      defaultConfiguration: { level: 'warning' },
    });
    assert.equal(byId.get('chrome.ts-string')?.defaultConfiguration.level, 'note');
    // Two rows of the list, one rule: both examples in its help, the table's `\|` as `|`.
    assert.match(byId.get('nnapi.phase-nesting')!.help.markdown, /^`B\|1\|\[NN_LR_PC\]compile`[^\n]*\n\n`B\|1\|\[NN_LU_PU\]helper`/);
  });

  it('every code the checkers can report has a rule (a new code needs an entry in its format\'s codes.ts)', () => {
    const codes = new Set<string>();
    const walk = (d: string) => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) for (const m of readFileSync(p, 'utf8').matchAll(/'((?:trace|cmdq|nnapi|inferscope|chrome|file)\.[a-z]+(?:-[a-z]+)*)'/g)) codes.add(m[1]);
      }
    };
    walk(join(ROOT, 'core'));
    walk(join(ROOT, 'cli'));
    const ruled = new Set(RULES.map((r) => r.id));
    const missing = [...codes].filter((c) => !ruled.has(c) && !/\.(?:json|jsonl|cmdq|trace)$/.test(c));
    assert.deepEqual(missing, []);
    assert.ok(codes.size > 60, `${codes.size} codes found`);
  });


  it('gives URIs relative to the working directory, percent-encoded, and absolute ones outside it', async () => {
    const sub = join(dir, 'a b');
    mkdirSync(sub, { recursive: true });
    const inside = join(sub, 'x#1%.trace.jsonl');
    writeFileSync(inside, '{"event_type":"WARN","t_cycle":1,"component":"TE","code":"C","msg":"m"}\n');
    const outside = join(ROOT, 'test/fixtures/cmdq/dep-cycle.cmdq.json');
    const r = await runCli(['check', '--format', 'sarif', join('a b', 'x#1%.trace.jsonl'), outside], dir);
    const log = JSON.parse(r.stdout) as Log;
    valid(log);
    const base = log.runs[0].originalUriBaseIds.SRCROOT.uri;
    assert.equal(base, `file://${dir}/`);
    const [first] = log.runs[0].results;
    const loc = first.locations[0].physicalLocation.artifactLocation;
    assert.equal(loc.uri, 'a%20b/x%231%25.trace.jsonl');
    assert.equal(fileURLToPath(new URL(loc.uri, base)), resolve(inside));
    const last = log.runs[0].results.at(-1)!.locations[0].physicalLocation.artifactLocation;
    assert.deepEqual(last, { uri: `file://${outside}` });
  });

  it('escapes a trace\'s own text: brackets (SARIF embedded links) and control characters', async () => {
    const file = join(dir, 'links.trace.jsonl');
    writeFileSync(file, `${JSON.stringify({ event_type: 'ERROR', t_cycle: 1, component: 'DMA', code: 'X', msg: 'see [here](1) \\[ok] \u001b[31mred' })}\n`);
    const r = await runCli(['check', '--format', 'sarif', file]);
    const log = JSON.parse(r.stdout) as Log;
    valid(log);
    assert.equal(log.runs[0].results[0].message.text, 'Simulator error \\[DMA X\\]: see \\[here\\](1) \\\\\\[ok\\] \\x1b\\[31mred');
  });

  it('reports an unreadable file as a notification of a failed run, still with the others\' results, exit 2', async () => {
    const broken = join(dir, 'broken.trace.jsonl.gz');
    writeFileSync(broken, 'not gzip\n');
    const r = await runCli(['check', '--format', 'sarif', broken, 'examples/faulty.trace.jsonl']);
    assert.equal(r.code, 2);
    const log = JSON.parse(r.stdout) as Log;
    valid(log);
    assert.equal(log.runs[0].invocations[0].executionSuccessful, false);
    assert.deepEqual(log.runs[0].invocations[0].toolExecutionNotifications?.map((n) => n.message.text), [`${broken}: incorrect header check`]);
    assert.ok(log.runs[0].results.length > 10);
  });
});
