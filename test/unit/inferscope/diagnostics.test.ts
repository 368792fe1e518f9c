import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeSettings } from '../../../core/common/settings';
import { InferscopeDocument } from '../../../core/inferscope/document';
import { inferscopeDiagnostics } from '../../../server/inferscope/diagnostics';
import { faultyAnalysis, faultyInferscope, inferscopeTrace, PLANTED_TRACE_CODES, pretty, wallOf } from '../../gen/inferscopeGen';
import { codes, rows, traceWith, type Obj } from './helpers';

describe('InferScope trace diagnostics', () => {
  it('a generated trace is clean, unknown fields anywhere included', () => {
    assert.deepEqual(rows(pretty(inferscopeTrace({ requests: 4 }))), []);
    const text = traceWith(({ events, scopes, root }) => {
      root.x_tool = { a: 1 };
      events[0].x_extra = [1, 2];
      (events[4].metadata as Obj).x_sm_count = 108;
      scopes[0].x_note = 'n';
    });
    assert.deepEqual(rows(text), []);
  });

  it('invalid-json where the parser stops, for a truncated file', () => {
    const text = pretty(inferscopeTrace());
    const cut = text.slice(0, Math.floor(text.length / 2));
    const r = rows(cut);
    assert.deepEqual(codes(r), ['inferscope.invalid-json']);
    assert.equal(r[0].d.range.start.line, cut.split('\n').length - 1);
  });

  it('a value the parser could not finish is only invalid JSON (found by the fuzz test)', () => {
    const text = pretty(inferscopeTrace()).replace('"trace_metadata": {', '"trace_metadata": {" "');
    assert.deepEqual(codes(rows(text)), ['inferscope.invalid-json']);
  });

  it('schema: a string where a number belongs, an unknown enum value, a missing field', () => {
    const r = rows(traceWith(({ events }) => {
      events[0].timestamp_start_us = '1234567890';
      (events[3].metadata as Obj).kind = 'pinnned';
      delete events[4].name;
    }));
    assert.deepEqual(r.map((x) => [x.code, x.token]), [
      ['inferscope.schema', '"1234567890"'],
      ['inferscope.schema', '"pinnned"'],
      ['inferscope.schema', '{'],
    ]);
    assert.match(r[0].d.message, /"timestamp_start_us" must be a number, got the string "1234567890"/);
    assert.match(r[1].d.message, /Did you mean "pinned"/);
    assert.match(r[2].d.message, /gpu_kernel event is missing required field "name"/);
  });

  it('unsupported-version on the version value', () => {
    const r = rows(traceWith(({ root }) => (root.format_version = '2.0')));
    assert.deepEqual(r.map((x) => [x.code, x.token]), [['inferscope.unsupported-version', '"2.0"']]);
  });

  it('duplicate-id on the later event id, related to the first', () => {
    const text = traceWith(({ events }) => (events[5].id = events[1].id));
    const r = rows(text);
    assert.deepEqual(r.map((x) => [x.code, x.token]), [['inferscope.duplicate-id', '"tok_done_0"']]);
    assert.ok(r[0].d.related![0].range.start.line < r[0].d.range.start.line);
  });

  it('end-before-start on timestamp_end_us, also for start == end', () => {
    const r = rows(traceWith(({ events }) => {
      events[0].timestamp_end_us = (events[0].timestamp_start_us as number) - 5;
      events[0].duration_us = -5;
      events[0].wall_clock_end = wallOf(events[0].timestamp_end_us as number);
      events[3].timestamp_end_us = events[3].timestamp_start_us;
      events[3].duration_us = 0;
    }));
    assert.deepEqual(r.filter((x) => x.code !== 'inferscope.schema').map((x) => [x.code, x.token]), [
      ['inferscope.end-before-start', '1234567885'],
      ['inferscope.end-before-start', '1234569490'],
    ]);
  });

  it('duration-mismatch beyond 1 µs only', () => {
    const r = rows(traceWith(({ events }) => {
      events[0].duration_us = 1501;
      events[3].duration_us = 700;
    }));
    assert.deepEqual(r.map((x) => [x.code, x.token]), [['inferscope.duration-mismatch', '700']]);
  });

  it('kernel-overlap per stream on the later kernel; different streams may overlap; per device by option', () => {
    const text = traceWith(({ events }) => {
      const k = events[6];
      k.timestamp_start_us = (events[4].timestamp_start_us as number) + 450;
      k.wall_clock_start = wallOf(k.timestamp_start_us as number);
      k.duration_us = (k.timestamp_end_us as number) - (k.timestamp_start_us as number);
    });
    const r = rows(text);
    assert.deepEqual(r.map((x) => [x.code, x.token]), [['inferscope.kernel-overlap', '1234570840']]);
    assert.match(r[0].d.message, /device 0, stream 7/);
    assert.match(r[0].d.related![0].message, /event 4/);
    // The clean trace runs stream 8 beside stream 7: per device, those overlap.
    const perDevice = rows(pretty(inferscopeTrace({ requests: 1, kernels: 2 })), { kernelOverlap: 'device' });
    assert.ok(perDevice.length > 0 && perDevice.every((x) => x.code === 'inferscope.kernel-overlap'));
  });

  it('wall-clock-mismatch against the offset of the trace itself, beyond 1 ms', () => {
    const r = rows(traceWith(({ events }) => {
      events[3].wall_clock_end = wallOf((events[3].timestamp_end_us as number) - 1500);
      events[4].wall_clock_start = wallOf((events[4].timestamp_start_us as number) + 900);
    }));
    assert.deepEqual(r.map((x) => [x.code, x.token]), [['inferscope.wall-clock-mismatch', '"2025-12-27T10:30:45.000900Z"']]);
    assert.match(r[0].d.message, /1500 µs \(1\.5 ms\) earlier/);
  });

  it('scope-containment on the child scope event_range key, related to the parent', () => {
    const r = rows(traceWith(({ scopes }) => {
      scopes[1].event_range = [0, 4];
      scopes[3].event_range = [3, 8];
    }));
    assert.deepEqual(r.map((x) => [x.code, x.token]), [['inferscope.scope-containment', '"event_range"']]);
    assert.match(r[0].d.message, /Scope "scope_gpu_0"/);
  });

  it('unknown-scope: a parent or child naming no scope, and lists that disagree', () => {
    const r = rows(traceWith(({ scopes }) => {
      scopes[2].parent_id = 'scope_nowhere';
      (scopes[0].child_ids as string[]).push('scope_ghost');
    }));
    assert.deepEqual(r.map((x) => [x.code, x.token]), [
      ['inferscope.unknown-scope', '"scope_ghost"'],
      ['inferscope.unknown-scope', '"scope_prep_0"'],
      ['inferscope.unknown-scope', '"scope_nowhere"'],
    ]);
    assert.match(r[1].d.message, /lists "scope_prep_0" as a child, but its parent_id is "scope_nowhere"/);
    const r2 = rows(traceWith(({ scopes }) => (scopes[1].child_ids = ['scope_prep_0'])));
    assert.deepEqual(r2.map((x) => [x.code, x.token]), [['inferscope.unknown-scope', '"scope_request_0"']]);
    assert.match(r2[0].d.message, /child_ids do not list it/);
  });

  it('event-range: reversed on the key, past the array on the index', () => {
    const r = rows(traceWith(({ scopes }) => {
      scopes[2].event_range = [1, 0];
      scopes[3].event_range = [3, 9];
    }));
    assert.deepEqual(r.map((x) => [x.code, x.token]), [['inferscope.event-range', '"event_range"'], ['inferscope.event-range', '9']]);
  });

  it('scope-cycle: a self-parent on its parent_id, a longer cycle once', () => {
    const r = rows(traceWith(({ scopes }) => (scopes[3].parent_id = 'scope_gpu_0')));
    assert.ok(codes(r).includes('inferscope.scope-cycle'));
    assert.deepEqual(r.filter((x) => x.code === 'inferscope.scope-cycle').map((x) => x.token), ['"scope_gpu_0"']);
    const two = rows(traceWith(({ scopes }) => {
      scopes[0].parent_id = 'scope_request_0';
      scopes[1].child_ids = ['scope_prep_0', 'scope_gpu_0', 'scope_inference'];
    }));
    const cyc = two.filter((x) => x.code === 'inferscope.scope-cycle');
    assert.equal(cyc.length, 1);
    assert.match(cyc[0].d.message, /cycle of 2 scopes/);
    assert.equal(cyc[0].d.related!.length, 1);
  });

  it('the faulty example plants one mistake per code', () => {
    const got = new Set(codes(rows(faultyInferscope())));
    assert.deepEqual([...got].sort(), [...PLANTED_TRACE_CODES].sort());
  });
});

describe('InferScope analysis diagnostics', () => {
  it('the faulty analysis: percent-sum on the key, summary-mismatch on the duration, confidence, evidence', () => {
    const r = rows(faultyAnalysis());
    assert.deepEqual(r.map((x) => [x.code, x.token]), [
      ['inferscope.percent-sum', '"timeline_breakdown"'],
      ['inferscope.summary-mismatch', '24100'],
      ['inferscope.confidence-range', '1.2'],
      ['inferscope.no-evidence', '"evidence"'],
      ['inferscope.no-evidence', '"Increase batch size"'],
    ]);
  });

  it('a percentage that disagrees with its duration is a summary-mismatch; within 0.5 points is not', () => {
    const a = JSON.parse(faultyAnalysis()) as Obj;
    const b = a.timeline_breakdown as Obj[];
    (a.summary as Obj).total_gpu_time_us = 24100;
    b[4].duration_us = 4500;
    b[4].percentage = 6.0;
    (a.bottleneck as Obj).confidence = 0.9;
    (a.bottleneck as Obj).evidence = ['GPU idle for 20% of timeline'];
    const r = rows(pretty(a));
    assert.deepEqual(r.map((x) => [x.code, x.token]), [['inferscope.summary-mismatch', '4500']]);
    assert.match(r[0].d.message, /5\.1% of end_to_end_latency_us 87400/);
  });

  it('an analysis result with a wrong type or enum gets schema diagnostics; a report is checked too', () => {
    const a = JSON.parse(faultyAnalysis()) as Obj;
    (a.bottleneck as Obj).type = 'io_bound';
    const r = rows(pretty(a));
    assert.ok(r.some((x) => x.code === 'inferscope.schema' && x.token === '"io_bound"'));
    const rep = pretty({ report_type: 'json', title: 'T', analysis: JSON.parse(faultyAnalysis()) });
    assert.ok(codes(rows(rep)).includes('inferscope.confidence-range'));
  });
});

describe('the kernel-overlap setting', () => {
  it('npuTrace.diagnostics.inferscopeKernelOverlap reaches the server diagnostics; anything else is per stream', () => {
    const doc = InferscopeDocument.parse(pretty(inferscopeTrace({ requests: 1, kernels: 2 })));
    const count = (raw: unknown) => inferscopeDiagnostics(doc, normalizeSettings(raw)).filter((d) => d.code === 'inferscope.kernel-overlap').length;
    assert.ok(count({ inferscopeKernelOverlap: 'device' }) > 0);
    assert.equal(count({ inferscopeKernelOverlap: 'stream' }), 0);
    assert.equal(count({ inferscopeKernelOverlap: 'gpu' }), 0);
    assert.equal(count({}), 0);
  });
});

describe('InferScope wording (#29 item 14)', () => {
  it('nesting past the parser\'s limit names an InferScope trace, not a CMDQ', () => {
    const text = pretty(inferscopeTrace()).replace('"trace_metadata": {', `"trace_metadata": {"x_deep": ${'['.repeat(200)}${']'.repeat(200)},`);
    const r = rows(text).filter((x) => x.code === 'inferscope.invalid-json');
    assert.equal(r.length, 1);
    assert.match(r[0].d.message, /Nesting deeper than 128 levels is not supported in an InferScope trace/);
  });

  it('a duration_us of 2^64 is quoted as written, not as the double it becomes', () => {
    const text = traceWith(({ events }) => {
      events[0].duration_us = 777_777;
    }).replace('"duration_us": 777777', '"duration_us": 18446744073709551616');
    const r = rows(text).filter((x) => x.code === 'inferscope.duration-mismatch');
    assert.equal(r.length, 1);
    assert.equal(r[0].token, '18446744073709551616');
    assert.match(r[0].d.message, /^duration_us 18446744073709551616 of event 0 "tokenize" disagrees with its timestamps/);
  });
});
