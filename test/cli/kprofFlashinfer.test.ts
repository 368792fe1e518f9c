// `npu-trace kprof` (the built dist/cli.js) on FlashInfer profiler buffers as profiler.cuh's macros
// write them (generated: test/gen/flashinferBuffer.ts), saved as users save them (.npy of the
// uint64 tensor, names beside it): the layout is recognised without --layout, every lane has its
// SM, the per-SM table is printed, and a correct buffer exits 0.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Ajv from 'ajv';
import { FI_NAMES, genFlashInfer } from '../gen/flashinferBuffer';
import { npyBytes, wordBytes } from '../gen/kprofGen';
import { ROOT, runCli } from './run';

const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/kprof.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
const dir = mkdtempSync(join(tmpdir(), 'kprof-fi-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Out {
  layout: string; num_blocks: number; num_groups: number; lanes_from_slots: boolean;
  lanes: { block: number; group: number; sm?: number; regions: unknown[] }[];
  sms?: { sm: number; blocks: number; lanes: number; regions: number }[];
  problems: { code: string; severity: string }[];
}

describe('npu-trace kprof on FlashInfer buffers', () => {
  const g = genFlashInfer({ grid: [264], numGroups: 2 });
  const npy = join(dir, 'prof.npy');
  writeFileSync(npy, npyBytes(g.words));
  writeFileSync(join(dir, 'prof.names.json'), JSON.stringify(FI_NAMES));

  it('--json: layout flashinfer by default, 528 lanes with their SM, a row per SM, no problem, exit 0', async () => {
    const r = await runCli(['kprof', '--json', npy]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Out;
    assert.ok(validate(out), JSON.stringify(validate.errors));
    assert.deepEqual([out.layout, out.num_blocks, out.num_groups, out.lanes_from_slots, out.lanes.length], ['flashinfer', 264, 2, true, 528]);
    assert.deepEqual(out.problems, []);
    assert.ok(out.lanes.every((l) => l.sm === g.blockSm[l.block]));
    assert.equal(out.sms?.length, 132);
    assert.ok(out.sms?.every((s) => s.blocks === 2 && s.lanes === 4));
  });

  it('text: the lanes table has an sm column and a Per SM table follows', async () => {
    const r = await runCli(['kprof', npy]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /: layout flashinfer, 264 block\(s\) × 2 group\(s\), lanes from slots, write_stride 528, /);
    assert.match(r.stdout, /^ *block +group +sm +records +regions +finalized/m);
    assert.match(r.stdout, new RegExp(`^ +3 +1 +${g.blockSm[3]} +`, 'm'));
    assert.match(r.stdout, /^Per SM\n +sm +blocks +lanes +records +regions +region ns +first ns +last ns +span ns$/m);
    assert.match(r.stdout, /\nNo problems\n$/);
  });

  it('the raw .bin (tensor.numpy().tofile()) decodes the same; --layout tvm gives the old bad-group errors, exit 1', async () => {
    const bin = join(dir, 'prof.bin');
    writeFileSync(bin, wordBytes(g.words));
    const a = await runCli(['kprof', '--json', '--names', FI_NAMES.join(','), bin]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal((JSON.parse(a.stdout) as Out).layout, 'flashinfer');
    const t = await runCli(['kprof', '--json', '--layout', 'tvm', bin]);
    assert.equal(t.code, 1);
    assert.ok((JSON.parse(t.stdout) as Out).problems.some((p) => p.code === 'kprof.bad-group'));
  });
});
