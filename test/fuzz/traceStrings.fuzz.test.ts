// Generated hostile strings in every string field of a trace: whatever a field holds, every hover
// renders as inert Markdown (no link, image, heading, list, forged bold or table) and every
// diagnostic is one short line without control characters. The fixed list of known attacks lives
// in test/hostile/messages.test.ts; this finds the ones nobody listed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { marked } from 'marked';
import { defaultDiagnosticSettings } from '../../core/common/settings';
import { TraceDocument } from '../../core/trace/document';
import { hoverAt } from '../../core/trace/hover';
import { scanLine } from '../../core/json/scanner';

// Pieces attacks are made of, mixed with arbitrary characters.
const PIECES = ['#', '# ', '\n', '\r\n', '\r', '\u2028', '|', '---', '`', '```', '*', '_', '~~', '[', ']', '(', ')', '!', '<', '>', '&', '&amp;',
  '&#x41;', 'https://evil.example/x', 'www.evil.example', '![i](https://evil.example/i.png)', '[l](https://evil.example)', '<img src=x>',
  '<script>', '\u001b[2J', '\u001b]0;t\u0007', '\u009b', '\u0000', '\t', '    ', '- ', '1. ', '> ', '=', '\\', 'x', ' '];

const hostile = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4, unit: 'binary' })), { minLength: 1, maxLength: 12 }).map((a) => a.join(''));

function lines(v: string[]): string[] {
  const s = (i: number) => JSON.stringify(v[i % v.length]);
  return [
    `{"event_type":"CMD_ENQUEUE","t_cycle":10,"cmd_id":1,"cmd_type":${s(0)},"phase":${s(1)},"layer_id":${s(2)},"model_name":${s(3)}}`,
    `{"event_type":"CMD_START","t_cycle":11,"cmd_id":1}`,
    `{"event_type":"JOB_ISSUE","t_cycle":12,"job_id":5,"cmd_id":1,"job_type":${s(4)}}`,
    `{"event_type":"VE_START","t_cycle":13,"job_id":5,"op_type":${s(5)},"phase":${s(1)}}`,
    `{"event_type":"VE_END","t_cycle":14,"job_id":5}`,
    `{"event_type":"DMA_START","t_cycle":15,"tx_id":9,"channel":0,"direction":${s(6)},"cmd_id":1,"size_bytes":64}`,
    `{"event_type":"DMA_END","t_cycle":16,"tx_id":9}`,
    `{"event_type":"JOB_DONE","t_cycle":17,"job_id":5}`,
    `{"event_type":"WARN","t_cycle":18,"component":${s(7)},"code":${s(8)},"msg":${s(9)}}`,
    `{"event_type":"CMD_END","t_cycle":19,"cmd_id":1,"status":${s(10)}}`,
    `{"event_type":${s(11)},"t_cycle":20}`,
  ];
}

const count = (s: string, needle: string) => s.split(needle).length - 1;
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

describe('hostile strings in trace fields (fuzz)', () => {
  it('hovers render inert and messages stay one short line', () => {
    fc.assert(fc.property(fc.array(hostile, { minLength: 12, maxLength: 12 }), (values) => {
      const text = lines(values);
      const doc = TraceDocument.parse(text.join('\n'));
      for (const d of doc.diagnostics(defaultDiagnosticSettings)) {
        // A simulator's own msg keeps its line breaks (printed on one line by the CLI); nothing else may break a line.
        const m = d.code === 'trace.reported-warning' ? d.message.replace(/\n/g, ' ') : d.message;
        assert.ok(!CONTROL.test(m) && !m.includes('\n'), `${d.code}: ${JSON.stringify(m)}`);
        assert.ok(m.length <= 2000, `${d.code}: ${m.length} characters`);
      }
      for (let ln = 0; ln < text.length; ln++) {
        for (const f of scanLine(text[ln]).fields) {
          for (const ch of [f.keyStart + 1, f.valueStart + 1]) {
            const h = hoverAt(doc, ln, ch);
            if (!h) continue;
            const out = marked.parse(h.markdown, { gfm: true, async: false });
            for (const tag of ['<a', '<img', '<h1', '<h2', '<h3', '<h4', '<h5', '<h6', '<script', '<hr', '<del', '<blockquote', '<ul', '<ol', '<input']) {
              assert.ok(!out.includes(tag), `line ${ln + 1}: ${tag} in\n${out}`);
            }
            assert.ok(count(out, '<strong>') <= 1, `line ${ln + 1}: forged bold\n${out}`);
            assert.ok(count(out, '<table>') <= 1, `line ${ln + 1}: forged table\n${out}`);
          }
        }
      }
    }), { numRuns: 60 });
  });
});
