// Differential test of the InferScope incremental re-parse: after any single edit, re-parsing only
// the touched events must give exactly what parsing the new text from scratch gives (or decline).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LineEdit } from '../../core/common/lines';
import { InferscopeDocument } from '../../core/inferscope/document';
import { reparseEdit } from '../../core/inferscope/incremental';
import type { ParsedInferscope } from '../../core/inferscope/model';
import { parseInferscope } from '../../core/inferscope/parser';
import { inferscopeTrace, pretty } from '../gen/inferscopeGen';

const TRACE = pretty(inferscopeTrace({ requests: 2, kernels: 2 }));
// Scopes before the events: the fields and scopes before the edit must not move.
const SCOPES_FIRST = (() => {
  const t = inferscopeTrace({ requests: 1, kernels: 1 });
  const { events, ...rest } = t;
  return pretty({ ...rest, events });
})();

function view(p: ParsedInferscope) {
  return {
    text: p.text, lineStarts: p.lineStarts, rootKind: p.rootKind, rootSpan: p.rootSpan, fields: [...p.fields.entries()],
    events: p.events, scopesKey: p.scopesKey, scopesKind: p.scopesKind, scopes: p.scopes, syntax: p.syntax,
  };
}

/** Replaces (line, char)..(line, char) by `insert` and describes it as the server does (DocumentStore.change). */
function edit(text: string, sl: number, sc: number, el: number, ec: number, insert: string): { text: string; edit: LineEdit } {
  const lines = text.split('\n');
  const off = (l: number, c: number) => lines.slice(0, l).reduce((n, x) => n + x.length + 1, 0) + c;
  const next = text.slice(0, off(sl, sc)) + insert + text.slice(off(el, ec));
  return { text: next, edit: { start: sl, end: el + 1, newCount: insert.split('\n').length } };
}

/** The same after a random edit, checked both ways; returns whether the fast path was taken. */
function check(base: string, sl: number, sc: number, el: number, ec: number, ins: string): boolean {
  const e = edit(base, sl, sc, el, ec, ins);
  const inc = reparseEdit(parseInferscope(base), e.text, e.edit);
  if (!inc) return false;
  const full = parseInferscope(e.text);
  assert.deepEqual(view(inc), view(full));
  assert.deepEqual(new InferscopeDocument(inc).allDiagnostics(), new InferscopeDocument(full).allDiagnostics());
  return true;
}

describe('InferScope incremental re-parse', () => {
  const INSERTS = ['', '7', ', 3', '"x"', '}', '{', ',', ' ', '[]', '// c', '\n', '"id": "tok_0",', '-1', 'NaN', '"', '{"id": "n", "type": "instant", "name": "m", "timestamp_us": 5},\n'];
  for (const [name, base] of [['events last', TRACE], ['scopes first', SCOPES_FIRST]] as const) {
    const lines = base.split('\n');
    const first = lines.findIndex((l) => l.includes('"events"'));
    const last = first + lines.slice(first).findIndex((l) => /^ {2}\]/.test(l));
    it(`equals a full parse after any edit in the events array (${name})`, () => {
      let fast = 0;
      fc.assert(fc.property(
        fc.integer({ min: first - 1, max: last + 1 }), fc.nat({ max: 60 }), fc.nat({ max: 3 }), fc.nat({ max: 8 }), fc.constantFrom(...INSERTS),
        (line, col, span, del, ins) => {
          const el = Math.min(lines.length - 1, line + (span === 3 ? 1 : 0));
          const sc = Math.min(col, lines[line].length);
          const ec = el === line ? Math.min(lines[el].length, sc + del) : Math.min(lines[el].length, del);
          if (check(base, line, sc, el, ec, ins)) fast++;
        },
      ), { numRuns: 400 });
      assert.ok(fast > 50, `the fast path was taken ${fast} times in 400`);
    });
  }

  it('takes the fast path for typing in an event, deleting and inserting whole events; not for the brackets', () => {
    const lines = TRACE.split('\n');
    const ts = lines.findIndex((l) => l.includes('"timestamp_start_us"'));
    const open = lines.findIndex((l) => l.includes('"events": ['));
    const evStart = open + 1;
    let evEnd = evStart;
    while (lines[evEnd] !== '    },') evEnd++;
    const typed = edit(TRACE, ts, lines[ts].length - 1, ts, lines[ts].length - 1, '5');
    const del = edit(TRACE, evStart, 0, evEnd + 1, 0, '');
    const dup = edit(TRACE, evStart, 0, evStart, 0, `${lines.slice(evStart, evEnd + 1).join('\n')}\n`);
    for (const x of [typed, del, dup]) {
      const inc = reparseEdit(parseInferscope(TRACE), x.text, x.edit);
      assert.ok(inc, JSON.stringify(x.edit));
      assert.deepEqual(view(inc), view(parseInferscope(x.text)));
    }
    // Only the edited event is parsed again: the others keep their parsed objects (shifted copies after it).
    const old = InferscopeDocument.parse(TRACE);
    const next = old.update([typed.edit], typed.text);
    const k = next.parsed.events.findIndex((e) => e.start <= typed.text.split('\n').slice(0, ts).join('\n').length && e.end > typed.text.split('\n').slice(0, ts).join('\n').length);
    assert.ok(k >= 0);
    next.parsed.events.forEach((e, i) => assert.equal(e.obj === old.parsed.events[i].obj, i !== k, `event ${i}`));
    assert.equal(next.parsed.events[k].obj!.timestamp_start_us, (old.parsed.events[k].obj!.timestamp_start_us as number) * 10 + 5);
    const bracket = edit(TRACE, open, lines[open].indexOf('['), open, lines[open].indexOf('[') + 1, '{');
    assert.equal(reparseEdit(parseInferscope(TRACE), bracket.text, bracket.edit), undefined);
  });
});
