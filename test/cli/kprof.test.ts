// `npu-trace kprof` as a child process (the built dist/cli.js): text tables, --json against the
// published schema, names from the .npz / sidecars / --names, launches, stride, overlap, exit codes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { deflateRawSync } from 'node:zlib';
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
