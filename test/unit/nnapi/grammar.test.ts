// The TextMate grammar's patterns use only syntax that JavaScript regexes share with Oniguruma, so
// they can be checked here on real rows: which text each colour (scope) lands on.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';

interface Rule { match?: string; name?: string; captures?: Record<string, { name?: string; patterns?: unknown[] }>; patterns?: Rule[] }
const grammar = JSON.parse(readFileSync(resolve(__dirname, '../../../syntaxes/nnapi-systrace.tmLanguage.json'), 'utf8')) as { repository: Record<string, Rule> };

/** Text captured under each scope name by a repository rule. */
function scopes(rule: string, line: string): Record<string, string> {
  const r = grammar.repository[rule];
  const m = new RegExp(r.match!).exec(line);
  assert.ok(m, `${rule} matches ${line}`);
  const out: Record<string, string> = {};
  for (const [i, c] of Object.entries(r.captures ?? {})) if (c.name && m[Number(i)] !== undefined) out[c.name.replace(/\.nnapi-systrace$/, '')] = m[Number(i)];
  return out;
}

describe('nnapi-systrace grammar', () => {
  it('colours task, pid, tgid, timestamp, B/E and the mark of a row', () => {
    const s = scopes('mark-row', '  HwBinder:784_1-5236  (  784) [001] ...1   397.528915: tracing_mark_write: B|784|[SW][NN_LC_PCO]funcC1');
    assert.equal(s['entity.name.type.task'], 'HwBinder:784_1');
    assert.equal(s['constant.numeric.pid'], '5236');
    assert.equal(s['constant.numeric.tgid'], '784');
    assert.equal(s['constant.numeric.timestamp'], '397.528915');
    assert.equal(s['keyword.control.begin-end'], 'B');
    const e = scopes('mark-row', '  NeuralNetworks-5143  ( 5143) [005] ...1   142.924145: tracing_mark_write: E');
    assert.equal(e['keyword.control.begin-end'], 'E');
  });

  it('colours the tag with layer and phase apart, and [SW]/[SUB]', () => {
    const rules = grammar.repository['mark-text'].patterns!;
    const tag = rules.find((r) => r.captures?.['3'])!;
    const m = new RegExp(tag.match!).exec('[SUB][NN_LR_PC]VersionedIDevice::prepareModel')!;
    assert.equal(m[0], '[NN_LR_PC]');
    assert.equal(tag.captures!['3'].name, 'entity.other.attribute-name.layer.nnapi-systrace');
    assert.equal(m[3], 'LR');
    assert.equal(m[4], 'PC');
    assert.ok(new RegExp(rules[0].match!).test('[SUB]'));
  });

  it('leaves other ftrace rows to the generic rule and comments as comments', () => {
    const s = scopes('other-row', '          <idle>-0     (-----) [003] d..2   100.000001: sched_switch: prev_comm=swapper/3');
    assert.equal(s['support.function.event'], 'sched_switch');
    assert.ok(new RegExp(grammar.repository.comment.match!).test('# tracer: nop'));
  });
});
