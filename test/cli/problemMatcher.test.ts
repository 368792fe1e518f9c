// The `$npu-trace` problem matcher of package.json, fed the real text output of `npu-trace check`:
// every line it prints is one match, with the file, position, severity, code and message of the
// JSON output. Severity as VS Code reads it (problemMatcher.ts getSeverity): `error`, `warning`
// and `hint` by name; `information` is not a name it knows, so it takes the matcher's default.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runCli } from './run';

interface Matcher {
  name: string;
  owner: string;
  severity: string;
  fileLocation: string[];
  pattern: { regexp: string; file: number; line: number; column: number; severity: number; code: number; message: number };
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { problemMatchers: Matcher[]; taskDefinitions: { type: string; required: string[] }[] };
  activationEvents: string[];
};
const matcher = pkg.contributes.problemMatchers.find((m) => m.name === 'npu-trace')!;

/** VS Code's severity for a matched line: by name, else the matcher's default. */
function vscodeSeverity(value: string): string {
  if (/^(error|warning|info)$/i.test(value)) return value.toLowerCase();
  if (/^(hint|note)$/i.test(value)) return 'info';
  return matcher.severity;
}

let dir = '';
before(() => {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  dir = mkdtempSync(join(tmpdir(), 'matcher-cli-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface JsonFile { file: string; diagnostics: { range: { start: { line: number; character: number } }; severity: string; code: string; message: string }[] }

describe('the $npu-trace problem matcher', () => {
  it('is contributed with the npu-trace task type, which activates the extension', () => {
    assert.ok(matcher, 'no problem matcher named npu-trace');
    assert.deepEqual(matcher.fileLocation, ['autoDetect', '${workspaceFolder}']);
    const task = pkg.contributes.taskDefinitions.find((t) => t.type === 'npu-trace');
    assert.deepEqual(task?.required, ['files']);
    assert.ok(pkg.activationEvents.includes('onTaskType:npu-trace'));
    assert.match(readFileSync(join(ROOT, 'client/checkTask.ts'), 'utf8'), /\['\$npu-trace'\]/);
  });

  it('matches every line of the text output, as the JSON output says, also for a message that quotes a problem line and a file name with spaces and colons', async () => {
    const tricky = join(dir, 'run 1: a,b.trace.jsonl');
    writeFileSync(tricky, [
      { event_type: 'ERROR', t_cycle: 1, component: 'DMA', code: 'X', msg: 'x.trace.jsonl:9:9 error trace.fake boom' },
      { event_type: 'IRQ_EMIT', t_cycle: 0 },
    ].map((o) => JSON.stringify(o)).join('\n'));
    const info = join(dir, 'info.trace.json');
    writeFileSync(info, '{"traceEvents":[{"ph":"X","name":"a","ts":"23.5","dur":1,"pid":1,"tid":1}]}\n');
    const files = ['examples', 'test/fixtures/cmdq', tricky, info];
    const text = await runCli(['check', ...files]);
    const json = await runCli(['check', '--format', 'json', ...files]);
    const expected = (JSON.parse(json.stdout) as JsonFile[]).flatMap((f) => f.diagnostics.map((d) => ({
      file: f.file, line: String(d.range.start.line + 1), column: String(d.range.start.character + 1), severity: d.severity, code: d.code, message: d.message,
    })));
    const re = new RegExp(matcher.pattern.regexp);
    const p = matcher.pattern;
    const got = text.stdout.split('\n').filter((l) => l !== '').map((l) => {
      const m = re.exec(l);
      assert.ok(m, `no match: ${l}`);
      return { file: m[p.file], line: m[p.line], column: m[p.column], severity: m[p.severity], code: m[p.code], message: m[p.message] };
    });
    assert.ok(expected.length > 50, `${expected.length} problems`);
    assert.deepEqual(got, expected);
    assert.deepEqual(new Set(got.map((g) => vscodeSeverity(g.severity))), new Set(['error', 'warning', 'info']));
    assert.equal(vscodeSeverity('information'), 'info');
    assert.ok(got.some((g) => g.file === tricky && g.message.endsWith('x.trace.jsonl:9:9 error trace.fake boom')));
  });
});
