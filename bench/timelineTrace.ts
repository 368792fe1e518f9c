import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * Writes a synthetic NPU trace of about `events` events (≈200 B each): commands on two cores, each
 * with jobs that move data (DMA + NoC + DRAM legs, SRAM accesses) and compute on TE or VE.
 */
export async function writeTimelineTrace(file: string, events: number): Promise<number> {
  const out = createWriteStream(file);
  let n = 0, t = 0, cmd = 0, job = 0, tx = 0;
  let buf: string[] = [];
  const emit = (o: Record<string, unknown>) => {
    buf.push(JSON.stringify(o));
    n++;
  };
  const flush = async () => {
    if (!out.write(buf.join('\n') + '\n')) await once(out, 'drain');
    buf = [];
  };
  emit({ event_type: 'TRACE_META', version: '1.0', sim_version: 'bench', sim_config: { clock_ghz: 1.2 } });
  const phases = ['QKV_PROJ', 'ATTENTION_SCORE', 'ATTENTION_APPLY', 'MLP', 'LN1'];
  while (n < events) {
    const core = cmd % 2, layer = Math.floor(cmd / 40) % 32, phase = phases[cmd % phases.length];
    const c = cmd++;
    emit({ event_type: 'CMD_ENQUEUE', t_cycle: t, npu_id: 0, core_id: core, tenant_id: 1 + (c % 3), cmd_id: c, cmd_type: c % 5 === 4 ? 'LAYERNORM' : 'MATMUL', source: 'ISA', token: c >> 4, desc_addr: 140737488355328 + c * 64, layer_id: layer, phase, model_name: 'llama2_7b' });
    emit({ event_type: 'CMD_START', t_cycle: t + 5, cmd_id: c });
    let tt = t + 10;
    for (let j = 0; j < 8; j++) {
      const jb = job++, x = tx++, ch = j % 2;
      const te = c % 5 !== 4;
      emit({ event_type: 'JOB_ISSUE', t_cycle: tt, job_id: jb, cmd_id: c, job_type: te ? 'TE_GEMM' : 'VE_LN', tile_id: j, phase });
      emit({ event_type: 'DMA_START', t_cycle: tt + 1, tx_id: x, channel: ch, direction: 'DRAM_TO_SRAM', src_addr: 140737488355328 + x * 4096, dst_addr: 4096 * j, size_bytes: 16384, cmd_id: c, job_id: jb, phase });
      emit({ event_type: 'NOC_TX_START', t_cycle: tt + 2, tx_id: x, link_id: ch, size_bytes: 16384, cmd_id: c });
      emit({ event_type: 'DRAM_TX_START', t_cycle: tt + 3, tx_id: x, channel: ch, size_bytes: 16384, cmd_id: c });
      emit({ event_type: 'DRAM_TX_END', t_cycle: tt + 18, tx_id: x, channel: ch });
      emit({ event_type: 'NOC_TX_END', t_cycle: tt + 19, tx_id: x, link_id: ch });
      emit({ event_type: 'DMA_END', t_cycle: tt + 20, tx_id: x, channel: ch, cmd_id: c, job_id: jb });
      emit({ event_type: te ? 'TE_START' : 'VE_START', t_cycle: tt + 21, job_id: jb, cmd_id: c, phase, ...(te ? { m: 128, n: 128, k: 256 } : { op_type: 'LAYERNORM', len: 4096, batch: 8 }) });
      emit({ event_type: 'SRAM_ACCESS', t_cycle: tt + 22, addr: 4096 * j, bank_id: j % 4, access_type: 'READ', by: te ? 'TE' : 'VE', conflict: false, cmd_id: c, job_id: jb });
      emit({ event_type: te ? 'TE_END' : 'VE_END', t_cycle: tt + 45, job_id: jb, cmd_id: c, latency_cycles: 24 });
      emit({ event_type: 'JOB_DONE', t_cycle: tt + 46, job_id: jb, cmd_id: c, job_type: te ? 'TE_GEMM' : 'VE_LN', latency_cycles: 46 });
      tt += 30;
    }
    emit({ event_type: 'CMD_END', t_cycle: tt + 20, cmd_id: c, status: 'OK' });
    if (c % 50 === 49) emit({ event_type: 'IRQ_EMIT', t_cycle: tt + 21, cmd_id: c, token: c >> 4, irq_line: 3 });
    // Commands on the two cores overlap by half.
    t += 130;
    if (buf.length > 5000) await flush();
  }
  await flush();
  out.end();
  await once(out, 'finish');
  return n;
}
