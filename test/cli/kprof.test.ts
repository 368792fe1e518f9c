// `npu-trace kprof` as a child process (the built dist/cli.js): text tables, --json against the
// published schema, names from the .npz / sidecars / --names, launches, stride, overlap, exit codes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { deflateRawSync, gunzipSync } from 'node:zlib';
import Ajv from 'ajv';
import { genKprof, npyBytes, npyNames, npzBytes, wordBytes } from '../gen/kprofGen';
import { ROOT, runCli } from './run';

const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/kprof.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
const dir = mkdtempSync(join(tmpdir(), 'kprof-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Out {
  num_blocks: number; num_groups: number; write_stride: number; records: number; duration_ns: number; launch: number; launches: number;
  lanes: { block: number; group: number; finalized: boolean; regions: { name: string; start_ns: number; end_ns: number; dur_ns: number }[] }[];
  regions: { name: string; count: number; total_ns: number; mean_ns: number; min_ns: number; max_ns: number }[];
  problems: { code: string; slot: number; block: number; group: number; message: string }[];
  overlap?: { overlap_ns: number; of_a: number };
}

async function json(...args: string[]): Promise<{ code: number | null; out: Out; stderr: string }> {
  const r = await runCli(['kprof', '--json', ...args]);
  assert.ok(r.stdout, `no output: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as Out;
  assert.ok(validate(out), JSON.stringify(validate.errors));
  return { code: r.code, out, stderr: r.stderr };
}

function write(name: string, bytes: Uint8Array | string): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

describe('npu-trace kprof', () => {
  it('the spec\'s example: its durations, names from the .names.json sidecar, exit 0', async () => {
    const { code, out } = await json('examples/spec.kprof.npy');
    assert.equal(code, 0);
    assert.deepEqual([out.num_blocks, out.num_groups, out.write_stride, out.records, out.duration_ns], [4, 1, 4, 28, 8976]);
    assert.deepEqual(out.lanes.map((l) => `block ${l.block}: ${l.regions.map((r) => `${r.name}=${r.dur_ns}ns`).join(', ')}`), [
      'block 0: load=32ns, compute=8704ns, store=64ns',
      'block 1: load=96ns, compute=8704ns, store=64ns',
      'block 2: load=96ns, compute=8704ns, store=64ns',
      'block 3: load=96ns, compute=8704ns, store=64ns',
    ]);
    assert.deepEqual(out.lanes[0].regions[0], { name: 'load', event: 0, start_ns: 0, end_ns: 32, dur_ns: 32, start_slot: 1, end_slot: 5 });
    assert.deepEqual(out.regions.map((r) => [r.name, r.count, r.total_ns, r.mean_ns, r.min_ns, r.max_ns]), [['load', 4, 320, 80, 32, 96], ['compute', 4, 34816, 8704, 8704, 8704], ['store', 4, 256, 64, 64, 64]]);
    assert.deepEqual(out.problems, []);
  });
  it('text tables by default; the warp-specialized example with its .names.txt (name without extension) and --overlap', async () => {
    const r = await runCli(['kprof', '--overlap', '0,1', 'examples/warpspec.kprof.npy']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /layout tvm, 2 block\(s\) × 6 group\(s\), write_stride 12 \(inferred\), 1024 slots, 304 records/);
    assert.match(r.stdout, /^issue-tma-k +16 +2560 +160 +160 +160 +160 +160 +0$/m);
    assert.match(r.stdout, /^softmax-max +4 +16 +960 /m);
    assert.match(r.stdout, /^ +all +5120 +3520 +2560 +50\.0% +72\.7%$/m);
    assert.match(r.stdout, /No problems/);
  });
  it('--names a,b,c and --names FILE override the sidecar; a name past them is kprof.unknown-event', async () => {
    assert.deepEqual((await json('--names', 'x,y,z', 'examples/spec.kprof.npy')).out.regions.map((r) => r.name), ['x', 'y', 'z']);
    const f = write('n.json', '["p", "q"]');
    const { code, out } = await json('--names', f, 'examples/spec.kprof.npy');
    assert.deepEqual(out.regions.map((r) => r.name), ['p', 'q', 'event_2']);
    assert.equal(out.problems[0].code, 'kprof.unknown-event');
    assert.equal(code, 0, 'a warning does not fail the run');
  });
  it('reads a deflated .npz with its names array, a raw .bin, and a 2-D .npy launch by launch', async () => {
    const g = genKprof({ blocks: 2, slots: 32 });
    const z = write('run.npz', npzBytes({ prof: npyBytes(g.words), names: npyNames(['ld', 'mma', 'st']) }, (b) => new Uint8Array(deflateRawSync(b))));
    assert.deepEqual((await json(z)).out.regions.map((r) => r.name), ['ld', 'mma', 'st']);
    const bin = write('run.kprof.bin', wordBytes(g.words));
    assert.deepEqual((await json(bin)).out.regions.map((r) => r.count), [2, 2, 2]);
    const other = genKprof({ blocks: 3, slots: 32 });
    const two = write('two.npy', npyBytes(new Uint32Array([...g.words, ...other.words]), { shape: '(2, 32)' }));
    const l1 = await json('--launch', '1', two);
    assert.deepEqual([l1.out.launch, l1.out.launches, l1.out.num_blocks], [1, 2, 3]);
    assert.equal((await runCli(['kprof', '--launch', '2', two])).code, 2);
  });
  it('--stride overrides the inferred stride', async () => {
    const g = genKprof({ blocks: 2, stride: 3, slots: 40 });
    const f = write('s.npy', npyBytes(g.words));
    assert.equal((await json(f)).out.write_stride, 3);
    const forced = await json('--stride', '2', f);
    assert.equal(forced.out.write_stride, 2);
    assert.equal(forced.code, 1);
    assert.ok(forced.out.problems.some((p) => p.code === 'kprof.lane-collision'));
  });
  it('exit 1 on errors, with slot and lane; problems listed in the text output', async () => {
    const f = write('bad.npy', npyBytes(genKprof({ blocks: 2, slots: 8 }).words));
    const r = await runCli(['kprof', f]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /slot 6 block 1 group 0: error kprof\.buffer-full Buffer full: the next record of block 1 group 0 would be at slot 8/);
  });
  it('unreadable files and unusable arguments: exit 2 with one clear line', async () => {
    const cases: [string[], RegExp][] = [
      [['nope.npy'], /nope\.npy: no such file/],
      [[write('be.npy', npyBytes(genKprof({ blocks: 1 }).words, { descr: '>u8' }))], /be\.npy: The \.npy array is big-endian/],
      [[write('3d.npy', npyBytes(new Uint32Array(16), { shape: '(2, 2, 2)' }))], /is 3-D/],
      [[write('huge.npy', npyBytes(new Uint32Array(16), { shape: '(9223372036854775808,)' }))], /claims over 2\^53 elements/],
      [[write('empty.bin', '')], /empty/],
      [['--layout', 'nvtx', 'examples/spec.kprof.npy'], /unknown --layout nvtx/],
      [['--stride', '0', 'examples/spec.kprof.npy'], /--stride must be an integer ≥ 1/],
      [['--overlap', '0,9', 'examples/warpspec.kprof.npy'], /group 9 is not one of the buffer's 6/],
      [['--bogus', 'examples/spec.kprof.npy'], /Unknown option '--bogus'/],
      [[], /no buffer file given/],
    ];
    for (const [args, pattern] of cases) {
      const r = await runCli(['kprof', ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
      assert.equal(r.stdout, '');
    }
  });
  it('--chrome-trace OUT: valid Chrome Trace JSON, one pid per block, one tid per group, records as args; .gz and - too', async () => {
    interface Ev { ph: string; name: string; pid: number; tid: number; ts: number; dur?: number; args: { name?: string; event?: { slot: number; block: number; group: number; type: string }; end_event?: { slot: number; type: string } } }
    const out = join(dir, 'ws.chrome.json');
    const r = await runCli(['kprof', '--chrome-trace', out, 'examples/warpspec.kprof.npy']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /6 group\(s\)/, 'the report is still printed');
    const doc = JSON.parse(readFileSync(out, 'utf8')) as { displayTimeUnit: string; traceEvents: Ev[] };
    const ev = doc.traceEvents;
    const pids = new Map(ev.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => [e.pid, e.args.name]));
    assert.deepEqual([...pids.values()], ['block 0', 'block 1']);
    const threads = new Map(ev.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}/${e.tid}`, e.args.name]));
    assert.equal(threads.size, 12, '6 groups in each of 2 blocks');
    for (const pid of pids.keys()) assert.deepEqual([...threads].filter(([k]) => k.startsWith(`${pid}/`)).map(([, n]) => n), ['group 0', 'group 1', 'group 2', 'group 3', 'group 4', 'group 5']);
    const spans = ev.filter((e) => e.ph === 'X');
    const report = (await json('examples/warpspec.kprof.npy')).out;
    assert.equal(spans.length, report.lanes.reduce((n, l) => n + l.regions.length, 0), 'a span per region');
    for (const e of spans) {
      assert.equal(pids.get(e.pid), `block ${e.args.event!.block}`);
      assert.equal(threads.get(`${e.pid}/${e.tid}`), `group ${e.args.event!.group}`);
      assert.deepEqual([e.args.event!.type, e.args.end_event!.type], ['start', 'end']);
    }
    // Times in µs (Chrome's unit), from the ns of the buffer: the first region of block 0 group 0.
    const first = report.lanes[0].regions[0];
    const span = spans.find((e) => e.pid === 1 && threads.get(`1/${e.tid}`) === 'group 0' && e.ts === first.start_ns / 1000)!;
    assert.ok(span, 'the first region of block 0 group 0 at its start');
    assert.equal(span.dur, first.dur_ns / 1000);
    const gz = join(dir, 'ws.chrome.json.gz');
    assert.equal((await runCli(['kprof', '--chrome-trace', gz, 'examples/warpspec.kprof.npy'])).code, 0);
    assert.deepEqual(JSON.parse(gunzipSync(readFileSync(gz)).toString('utf8')), doc);
    const piped = await runCli(['kprof', '--chrome-trace', '-', 'examples/warpspec.kprof.npy']);
    assert.deepEqual(JSON.parse(piped.stdout), doc, 'with -, stdout holds only the Chrome JSON');
  });
  it('escape sequences in event names reach the terminal as text', async () => {
    const f = write('esc.npy', npyBytes(genKprof({ blocks: 1 }).words));
    write('esc.npy.names.json', JSON.stringify(['\u001b]8;;http://x\u0007load', 'a\u001b[2Jb', 'c\nd']));
    const r = await runCli(['kprof', f]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes('\u001b') && !r.stdout.includes('\u0007'), 'a raw ESC or BEL reached the terminal');
    assert.match(r.stdout, /\\x1b\]8;;http:\/\/x\\x07load/);
    assert.match(r.stdout, /^c\\x0ad /m);
  });
});
