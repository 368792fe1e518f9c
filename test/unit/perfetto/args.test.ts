import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WireType } from '@bufbuild/protobuf/wire';
import { ChromeTraceExporter } from '../../../core/export/chromeTrace';
import { timelineSliceRows } from '../../../core/export/parquet/timelineRows';
import { SLICES_COLUMNS } from '../../../core/export/parquet/schema';
import { MAX_ARG_CHARS, MAX_ARG_DEPTH, MAX_ARG_ENTRIES, MAX_ARG_STRING } from '../../../core/perfetto/annotations';
import { PerfettoFile } from '../../../core/perfetto/file';
import { perfettoTimeline } from '../../../core/perfetto/timeline';
import { argRows, argsOf, MAX_ARG_ROWS } from '../../../core/timeline/itemArgs';
import { FLAG, type TimelineModel } from '../../../core/timeline/model';
import { validModel } from '../../../protocol/timeline';
import { escapeControl } from '../../../core/common/escape';
import { annotation, oneArgTrace, SDK_ARGS_SLICE, sdkArgsTrace } from '../../gen/perfettoArgsGen';
import { msg, str, u64 } from '../../gen/perfettoGen';
import type { BinaryWriter } from '@bufbuild/protobuf/wire';

/** The model item of the slice (or instant) named `name`. */
function itemNamed(m: TimelineModel, name: string): number {
  const i = m.items.name.findIndex((k) => m.strings[k] === name);
  assert.ok(i >= 0, `no item ${name}`);
  return i;
}

function chromeEvents(m: TimelineModel): { ph: string; name: string; args?: Record<string, unknown> }[] {
  const e = new ChromeTraceExporter(m, { source: 'x.pftrace' });
  return (JSON.parse(e.head() + e.tail()) as { traceEvents: { ph: string; name: string; args?: Record<string, unknown> }[] }).traceEvents;
}

function diagnostics(bytes: Uint8Array): { code: string; message: string }[] {
  const f = new PerfettoFile();
  f.feed(bytes);
  return f.end().diagnostics.map((d) => ({ code: d.code, message: d.message }));
}

/** The args of the one item of a trace whose event has the annotations `fill` writes. */
function argsOfOne(fill: (e: BinaryWriter) => void): Record<string, unknown> {
  const m = perfettoTimeline(oneArgTrace(fill));
  return JSON.parse(argsOf(m, 0)!) as Record<string, unknown>;
}

describe('perfetto debug annotations as arguments', () => {
  it('every kind the writers write, names and string values interned, the end event\'s added: in the model', () => {
    const bytes = sdkArgsTrace();
    assert.deepEqual(diagnostics(bytes), []);
    const m = perfettoTimeline(bytes);
    assert.ok(validModel(m));
    assert.deepEqual(JSON.parse(argsOf(m, itemNamed(m, 'Invoke'))!), SDK_ARGS_SLICE);
    assert.deepEqual(JSON.parse(argsOf(m, itemNamed(m, 'checkpoint'))!), { where: 'after load' });
    // The uint64 maximum keeps its digits; the text with a quote and a line end is JSON text again.
    assert.match(argsOf(m, itemNamed(m, 'Invoke'))!, /"count":"18446744073709551615"/);
  });

  it('chrome-trace: each event\'s args are its arguments', () => {
    const ev = chromeEvents(perfettoTimeline(sdkArgsTrace()));
    assert.deepEqual(ev.find((e) => e.name === 'Invoke')!.args, SDK_ARGS_SLICE);
    assert.deepEqual(ev.find((e) => e.name === 'checkpoint')!.args, { where: 'after load' });
  });

  it('chrome-trace: a slice without arguments has empty args; a problem is added beside an argument of the same name', () => {
    const m = perfettoTimeline(oneArgTrace((e) => annotation(e, (a) => {
      str(a, 10, 'problem');
      str(a, 6, 'mine');
    })));
    m.items.flags[0] |= FLAG.unmatchedStart;
    const ev = chromeEvents(m).filter((e) => e.ph === 'i');
    assert.deepEqual(ev[0].args, { problem: 'mine', 'problem (2)': 'no end event: drawn to the end of the trace' });
    const plain = perfettoTimeline(oneArgTrace(() => {}));
    assert.deepEqual(chromeEvents(plain).filter((e) => e.ph === 'i')[0].args, {});
  });

  it('parquet: the slices table\'s args column, null without arguments', () => {
    const m = perfettoTimeline(sdkArgsTrace());
    const rows: Record<string, unknown>[] = [];
    timelineSliceRows(m, 'run', (_t, cols) => {
      for (let r = 0; r < cols[0].length; r++) rows.push(Object.fromEntries(SLICES_COLUMNS.map((c, j) => [c.name, cols[j][r]])));
    });
    const invoke = rows.find((r) => r.name === 'Invoke')!;
    assert.deepEqual(JSON.parse(invoke.args as string), SDK_ARGS_SLICE);
    const plain: Record<string, unknown>[] = [];
    timelineSliceRows(perfettoTimeline(oneArgTrace(() => {})), 'run', (_t, cols) => plain.push({ args: cols[SLICES_COLUMNS.findIndex((c) => c.name === 'args')][0] }));
    assert.equal(plain[0].args, null);
  });

  it('details pane rows: names and values as JSON, cut, control characters visible', () => {
    const m = perfettoTimeline(sdkArgsTrace());
    const rows = new Map(argRows(argsOf(m, itemNamed(m, 'Invoke'))!));
    assert.equal(rows.get('batch'), '8');
    assert.equal(rows.get('config'), '{"threads":4,"delegate":"nnapi","dims":[1,224]}');
    assert.equal(rows.get('model'), '"mobilenet_v2 \\"quant\\"\\n"');
    const many = JSON.stringify(Object.fromEntries(Array.from({ length: MAX_ARG_ROWS + 5 }, (_, k) => [`k${k}`, 'x'.repeat(1000)])));
    const r = argRows(many);
    assert.equal(r.length, MAX_ARG_ROWS + 1);
    assert.ok(r[0][1].length < 510);
    assert.deepEqual(r[MAX_ARG_ROWS], ['…', '5 more arguments not shown']);
    assert.deepEqual(argRows(JSON.stringify({ '\u202ename': 'a\u202eb' })), [[escapeControl('\u202ename'), escapeControl('"a\u202eb"')]]);
    assert.notEqual(escapeControl('\u202e'), '\u202e');
  });

  it('hostile values: __proto__ and repeated names are keys, NaN and infinities are named, pointers are hex', () => {
    const args = argsOfOne((e) => {
      for (const [name, fill] of [
        ['__proto__', (a: BinaryWriter) => str(a, 6, 'p')],
        ['x', (a: BinaryWriter) => a.tag(5, WireType.Bit64).double(NaN)],
        ['x', (a: BinaryWriter) => a.tag(5, WireType.Bit64).double(-Infinity)],
        ['ptr', (a: BinaryWriter) => u64(a, 7, 0xffffffffffffffffn)],
      ] as const) {
        annotation(e, (a) => {
          str(a, 10, name);
          fill(a);
        });
      }
    });
    assert.deepEqual(Object.entries(args), [['__proto__', 'p'], ['x', 'NaN'], ['x (2)', '-Infinity'], ['ptr', '0xffffffffffffffff']]);
  });

  it('bounded: an annotation nested 100 deep, a 1 MB string and 10 000 annotations are cut, and said', () => {
    const deep = (a: BinaryWriter, d: number): void => {
      if (d === 0) {
        u64(a, 3, 1);
        return;
      }
      msg(a, 11, (x) => {
        str(x, 10, 'n');
        deep(x, d - 1);
      });
    };
    const nestedBytes = oneArgTrace((e) => annotation(e, (a) => {
      str(a, 10, 'deep');
      deep(a, 100);
    }));
    let v: unknown = JSON.parse(argsOf(perfettoTimeline(nestedBytes), 0)!);
    let levels = 0;
    while (typeof v === 'object' && v !== null) {
      v = (v as Record<string, unknown>).deep ?? (v as Record<string, unknown>).n;
      levels++;
    }
    assert.equal(levels, MAX_ARG_DEPTH + 1);
    assert.match(String(v), /nested deeper than 16 levels: not read/);
    assert.ok(diagnostics(nestedBytes).some((d) => d.code === 'perfetto.args-capped'));
    // The same in the older NestedValue form (DICT of one key, 100 deep).
    const deepNested = (n: BinaryWriter, d: number): void => {
      if (d === 0) {
        u64(n, 5, 1);
        return;
      }
      u64(n, 1, 1);
      str(n, 2, 'n');
      msg(n, 3, (x) => deepNested(x, d - 1));
    };
    v = argsOfOne((e) => annotation(e, (a) => {
      str(a, 10, 'deep');
      msg(a, 8, (n) => deepNested(n, 100));
    }));
    levels = 0;
    while (typeof v === 'object' && v !== null) {
      v = (v as Record<string, unknown>).deep ?? (v as Record<string, unknown>).n;
      levels++;
    }
    assert.equal(levels, MAX_ARG_DEPTH + 1);
    assert.match(String(v), /nested deeper than 16 levels: not read/);

    const big = 'é'.repeat(1 << 20);
    const long = argsOfOne((e) => annotation(e, (a) => {
      str(a, 10, 'big');
      str(a, 6, big);
    }));
    assert.equal(long.big, `${big.slice(0, MAX_ARG_STRING)}… (${big.length - MAX_ARG_STRING} more characters not kept)`);

    const manyBytes = oneArgTrace((e) => {
      for (let k = 0; k < MAX_ARG_ENTRIES + 10; k++) annotation(e, (a) => {
        str(a, 10, `a${k}`);
        u64(a, 3, k);
      });
    });
    const many = JSON.parse(argsOf(perfettoTimeline(manyBytes), 0)!) as Record<string, unknown>;
    assert.equal(Object.keys(many).length, MAX_ARG_ENTRIES + 1);
    assert.equal(many['…'], '10 more annotations not read');
    const d = diagnostics(manyBytes).filter((x) => x.code === 'perfetto.args-capped');
    assert.equal(d.length, 1);
    assert.match(d[0].message, new RegExp(`${MAX_ARG_ENTRIES} entries, ${MAX_ARG_DEPTH} levels of nesting, ${MAX_ARG_STRING} characters a string, ${MAX_ARG_CHARS} in all`));

    // Many strings of one event share its budget of characters.
    const shared = argsOfOne((e) => {
      for (let k = 0; k < 20; k++) annotation(e, (a) => {
        str(a, 10, `s${k}`);
        str(a, 6, 'x'.repeat(MAX_ARG_STRING));
      });
    });
    const kept = Object.values(shared).reduce<number>((n, x) => n + (x as string).replace(/… \(\d+ more characters not kept\)$/, '').length, 0);
    assert.ok(kept <= MAX_ARG_CHARS, `${kept}`);
  });

  it('legacy JSON: parsed when it is JSON within the depth, else kept as text; an unknown name iid is said', () => {
    const deepJson = `${'['.repeat(40)}${']'.repeat(40)}`;
    const args = argsOfOne((e) => {
      annotation(e, (a) => {
        str(a, 10, 'deep');
        str(a, 9, deepJson);
      });
      annotation(e, (a) => {
        u64(a, 1, 9);
        str(a, 6, 'v');
      });
    });
    assert.equal(args.deep, deepJson);
    assert.equal(args['#9'], 'v');
    const bytes = oneArgTrace((e) => annotation(e, (a) => {
      u64(a, 1, 9);
      u64(a, 17, 4);
    }));
    assert.deepEqual(diagnostics(bytes).map((d) => d.code), ['perfetto.unknown-interned-id', 'perfetto.unknown-interned-id']);
  });

  it('the protocol refuses arguments the page could not look up', () => {
    const m = perfettoTimeline(sdkArgsTrace());
    assert.ok(validModel(m));
    assert.ok(!validModel({ ...m, args: { item: new Uint32Array([1, 0]), json: ['{}', '{}'] } }));
    assert.ok(!validModel({ ...m, args: { item: new Uint32Array([99]), json: ['{}'] } }));
    assert.ok(!validModel({ ...m, args: { item: new Uint32Array([0]), json: [1] } }));
  });
});
