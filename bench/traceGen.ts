import { createWriteStream } from 'node:fs';

const PHASES = ['QKV_PROJ', 'ATTENTION_SCORE', 'ATTENTION_APPLY', 'MLP', 'LN1'];

/**
 * Writes a valid trace of about `events` events (~200 B each): commands of jobs, each job with a DMA,
 * DRAM and NoC leg, a TE or VE span and SRAM traffic, all in time order. Deterministic.
 */
export async function writeTrace(file: string, events: number): Promise<number> {
  const out = createWriteStream(file);
  let buf: string[] = [];
  let n = 0;
  let t = 0;
  let cmd = 0;
  let job = 0;
  let tx = 0;
  // Every event carries the spec's common fields (§3.2), as a simulator writes them.
  const emit = async (o: Record<string, unknown>) => {
    const { event_type, t_cycle, ...rest } = o;
    const common = t_cycle === undefined ? {} : { t_ns: Math.round((t_cycle as number) / 1.5 * 100) / 100, sim_id: 'run_2025_11_25_01', core_id: n % 2, npu_id: 0, tenant_id: 1, thread_id: 0 };
    buf.push(JSON.stringify({ event_type, t_cycle, ...common, ...rest }));
    n++;
    if (buf.length >= 4096) {
      const chunk = buf.join('\n') + '\n';
      buf = [];
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
  };
  await emit({ event_type: 'TRACE_META', version: '1.0', clock_ghz: 1.5, sim_config: { te_tflops: 64, sram_size: 8388608 } });
  while (n < events) {
    const c = cmd++;
    const phase = PHASES[c % PHASES.length];
    const layer = Math.floor(c / PHASES.length) % 32;
    await emit({ event_type: 'CMD_ENQUEUE', t_cycle: t, cmd_id: c, cmd_type: phase === 'LN1' ? 'LAYERNORM' : 'MATMUL', source: 'ISA', token: c, desc_addr: 140737488355328 + c * 64, layer_id: layer, phase, model_name: 'llama2_7b' });
    t += 10;
    await emit({ event_type: 'CMD_START', t_cycle: t, cmd_id: c });
    for (let j = 0; j < 4; j++) {
      const jb = job++;
      const x = tx++;
      t += 5;
      await emit({ event_type: 'JOB_ISSUE', t_cycle: t, job_id: jb, cmd_id: c, job_type: phase === 'LN1' ? 'VE_LN' : 'TE_GEMM', tile_id: j, phase });
      const issue = t;
      await emit({ event_type: 'DMA_START', t_cycle: t + 1, tx_id: x, channel: x % 4, direction: 'DRAM_TO_SRAM', src_addr: 140737488355328 + x * 65536, dst_addr: 4096 * (x % 64), size_bytes: 65536, cmd_id: c, job_id: jb, phase });
      await emit({ event_type: 'DRAM_TX_START', t_cycle: t + 2, tx_id: x, channel: x % 8, size_bytes: 65536, cmd_id: c });
      await emit({ event_type: 'NOC_TX_START', t_cycle: t + 3, tx_id: x, link_id: x % 2, size_bytes: 65536, cmd_id: c });
      await emit({ event_type: 'NOC_TX_END', t_cycle: t + 40, tx_id: x, link_id: x % 2 });
      await emit({ event_type: 'DRAM_TX_END', t_cycle: t + 42, tx_id: x, channel: x % 8 });
      await emit({ event_type: 'DMA_END', t_cycle: t + 45, tx_id: x, channel: x % 4, cmd_id: c, job_id: jb });
      t += 46;
      const unit = phase === 'LN1' ? 'VE' : 'TE';
      const start = t;
      if (unit === 'TE') await emit({ event_type: 'TE_START', t_cycle: t, job_id: jb, cmd_id: c, m: 128, n: 128, k: 256, tile_m: 64, tile_n: 64, tile_k: 64, phase });
      else await emit({ event_type: 'VE_START', t_cycle: t, job_id: jb, cmd_id: c, op_type: 'LAYERNORM', len: 4096, batch: 128, phase });
      await emit({ event_type: 'SRAM_ACCESS', t_cycle: t + 3, addr: 8192 + jb * 64, bank_id: jb % 8, access_type: 'READ', by: unit, conflict: false, cmd_id: c, job_id: jb });
      t += 50;
      if (unit === 'TE') await emit({ event_type: 'TE_END', t_cycle: t, job_id: jb, cmd_id: c, mac_count: 4194304, latency_cycles: t - start });
      else await emit({ event_type: 'VE_END', t_cycle: t, job_id: jb, cmd_id: c, latency_cycles: t - start });
      t += 2;
      await emit({ event_type: 'JOB_DONE', t_cycle: t, job_id: jb, cmd_id: c, job_type: phase === 'LN1' ? 'VE_LN' : 'TE_GEMM', latency_cycles: t - issue });
    }
    t += 4;
    await emit({ event_type: 'CMD_END', t_cycle: t, cmd_id: c, status: 'OK' });
    await emit({ event_type: 'IRQ_EMIT', t_cycle: t, cmd_id: c, token: c, irq_line: 3 });
  }
  out.end(buf.length ? buf.join('\n') + '\n' : '');
  await new Promise<void>((r) => out.once('finish', () => r()));
  return n;
}
