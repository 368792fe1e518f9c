import { createWriteStream } from 'node:fs';

/**
 * Writes a systrace of about `lines` rows, deterministic: an app thread running executions
 * (create, setInput, startCompute → IPC → driver thread, Event_wait) in runs of 1000 executions,
 * a driver process answering them, and (`noise`) scheduler rows between them as real captures
 * have. `html` wraps it like a systrace export, with a multi-megabyte script line before it.
 */
export async function writeSystrace(file: string, lines: number, opts: { noise?: number; html?: boolean } = {}): Promise<number> {
  const out = createWriteStream(file);
  let buf: string[] = [];
  let n = 0;
  let us = 100_000_000;
  const flush = async (force = false) => {
    if (buf.length < 8192 && !force) return;
    const chunk = buf.join('\n') + '\n';
    buf = [];
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  };
  const ts = () => `${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}`;
  const noise = opts.noise ?? 0;
  const put = async (task: string, pid: number, tgid: number, mark: string) => {
    us += 3;
    buf.push(`  ${task}-${pid}  (${String(tgid).padStart(5)}) [00${n % 8}] ...1   ${ts()}: tracing_mark_write: ${mark}`);
    n++;
    for (let i = 0; i < noise; i++) {
      us += 1;
      buf.push(`          <idle>-0     (-----) [00${i % 8}] d..2   ${ts()}: sched_switch: prev_comm=swapper/${i % 8} prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=RenderThread next_pid=${3000 + i} next_prio=110`);
    }
    await flush();
  };
  const app = (m: string) => put('NeuralNetworks', 1000, 1000, m === 'E' ? 'E' : `B|1000|${m}`);
  const drv = (m: string) => put('HwBinder:2000_1', 2001, 2000, m === 'E' ? 'E' : `B|2000|${m}`);

  if (opts.html) {
    buf.push('<!DOCTYPE html>', '<html><head><meta charset="utf-8"/>', `<script>${'/* viewer */ var x = "tracing_mark_write: B|1|[NN_LR_PP]x";'.repeat(80_000)}</script>`,
      '</head><body>', '<script class="trace-data" type="application/text">');
  }
  buf.push('# tracer: nop', '#', '#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION', '#              | |        |      |   ||||       |         |');
  let exec = 0;
  while (n < lines) {
    await app('[NN_LA_PO]bench_run');
    await app('[NN_LR_PC]ANeuralNetworksCompilation_finish');
    await app('[NN_LI_PC]prepareModel');
    await app('HIDL::IDevice::prepareModel_1_2::client');
    await drv('HIDL::IDevice::prepareModel_1_2::server');
    await drv('E');
    await app('E');
    await app('E');
    await app('E');
    for (let i = 0; i < 1000 && n < lines; i++, exec++) {
      await app('[NN_LA_PE]execute');
      await app('[NN_LR_PE]ANeuralNetworksExecution_create');
      await app('E');
      await app('[NN_LR_PIO]ANeuralNetworksExecution_setInput');
      await app('E');
      await app('[NN_LR_PE]ANeuralNetworksExecution_startCompute');
      await app('[NN_LI_PE]execute');
      await app('HIDL::IPreparedModel::execute_1_2::client');
      await drv('HIDL::IPreparedModel::execute::server');
      await drv('[NN_LC_PCO]SampleDriver::op');
      await drv('E');
      await drv('HIDL::IExecutionCallback::notify::client');
      await drv('E');
      await drv('E');
      await app('E');
      await app('E');
      await app('E');
      await app('[NN_LR_PE]ANeuralNetworksEvent_wait');
      await app('E');
      await app('E');
    }
    await app('E');
  }
  if (opts.html) buf.push('  </script>', `<script>${'var y = 1;'.repeat(200_000)}</script>`, '</body></html>');
  await flush(true);
  await new Promise<void>((r) => out.end(() => r()));
  return n;
}
