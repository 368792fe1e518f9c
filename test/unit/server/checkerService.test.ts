import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { defaultDiagnosticSettings } from '../../../core/common/settings';
import { cmdqFormat } from '../../../core/cmdq/descriptor';
import { FORMATS } from '../../../core/formats';
import { traceFormat } from '../../../core/trace/descriptor';
import { checkerService } from '../../../server/checkerService';
import { services } from '../../../server/services';

const ROOT = resolve(__dirname, '../../..');
const codes = (ds: { code: string }[]) => ds.map((d) => d.code).sort();

describe('the server keys its services by format id', () => {
  it('every format of the registry with a language has one service, in registry order', () => {
    assert.deepEqual(services.map((s) => s.formatId), FORMATS.filter((f) => f.language).map((f) => f.id));
  });

  it('a format without a service of its own gets its checker: the diagnostics of npu-trace check', () => {
    for (const [f, file] of [[traceFormat, 'examples/faulty.trace.jsonl'], [cmdqFormat, 'test/fixtures/cmdq/self-dep.cmdq.json']] as const) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const s = checkerService(f);
      const doc = TextDocument.create('file:///x', f.id, 1, text);
      const got = s.diagnostics(s.parse(doc), doc, defaultDiagnosticSettings);
      const c = f.createChecker!();
      text.split('\n').forEach((l, i) => c.add(l, i));
      assert.ok(got.length > 0, file);
      assert.deepEqual(codes(got), codes(f.checkDocument ? f.checkDocument(text, defaultDiagnosticSettings).diagnostics : c.finishCapped(defaultDiagnosticSettings, []).diagnostics));
    }
  });
});
