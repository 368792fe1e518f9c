// `npm run bench`: every format's benchmark in one run. Not a test: it prints numbers.
import * as os from 'node:os';
import { run as big } from './big';
import { run as chrome } from './chrome';
import { run as cli } from './cli';
import { run as cmdq } from './cmdq';
import { run as cmdqGraph } from './cmdqGraph';
import { run as inferscope } from './inferscope';
import { run as jsonToolkit } from './jsonToolkit';
import { run as kprof } from './kprof';
import { run as nnapi } from './nnapi';
import { run as nnapiPy } from './nnapiPy';
import { run as parquet } from './parquet';
import { run as stats } from './stats';
import { run as timeline } from './timeline';
import { childCheck, run as trace } from './trace';

const BENCHES: [string, () => Promise<void>][] = [['trace', trace], ['cmdq', cmdq], ['cmdqGraph', cmdqGraph], ['nnapi', nnapi], ['nnapiPy', nnapiPy], ['timeline', () => timeline()], ['stats', stats], ['cli', cli], ['inferscope', inferscope], ['kprof', kprof], ['chrome', chrome], ['parquet', parquet], ['jsonToolkit', jsonToolkit]];

async function main(): Promise<void> {
  if (process.argv[2] === '--child-check') return childCheck(process.argv[3]);
  const only = process.argv.slice(2);
  console.log(`# npm run bench — ${new Date().toISOString()} — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  for (const [name, f] of BENCHES) if (!only.length || only.includes(name)) await f();
  // Minutes and gigabytes: only when asked for by name.
  if (only.includes('big')) await big();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
