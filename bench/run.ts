// `npm run bench`: every format's benchmark in one run. Not a test: it prints numbers.
import * as os from 'node:os';
import { run as big } from './big';
import { run as chrome } from './chrome';
import { run as cli } from './cli';
import { run as cmdq } from './cmdq';
import { run as cmdqGraph } from './cmdqGraph';
import { run as diff } from './diff';
import { run as grammars } from './grammars';
import { run as inferscope } from './inferscope';
import { run as jsonToolkit } from './jsonToolkit';
import { run as kineto } from './kineto';
import { run as kprof } from './kprof';
import { run as nnapi } from './nnapi';
import { run as nnapiPy } from './nnapiPy';
import { run as parquet } from './parquet';
import { perfettoCase, run as perfetto } from './perfetto';
import { run as stats } from './stats';
import { run as timeline } from './timeline';
import { childCheck, run as trace } from './trace';
import { run as vscode } from './vscode';
import { type SectionRun, writeResults } from './results';
import { rows } from './util';

const BENCHES: [string, () => Promise<void>][] = [['trace', trace], ['cmdq', cmdq], ['cmdqGraph', cmdqGraph], ['nnapi', nnapi], ['nnapiPy', nnapiPy], ['timeline', () => timeline()], ['stats', stats], ['diff', diff], ['cli', cli], ['inferscope', inferscope], ['kprof', kprof], ['chrome', chrome], ['kineto', kineto], ['parquet', parquet], ['jsonToolkit', jsonToolkit], ['perfetto', perfetto], ['vscode', vscode], ['grammars', grammars]];

async function main(): Promise<void> {
  if (process.argv[2] === '--child-check') return childCheck(process.argv[3]);
  if (process.argv[2] === '--perfetto-case') return perfettoCase(process.argv[3], process.argv[4]);
  const only = process.argv.slice(2);
  console.log(`# npm run bench — ${new Date().toISOString()} — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const runs: SectionRun[] = [];
  const section = async (name: string, f: () => Promise<void>) => {
    const r: SectionRun = { name, started: new Date(), loadBefore: os.loadavg(), loadAfter: [], rows: [], notes: [] };
    const firstRow = rows.length;
    const log = console.log;
    // Every line the section prints is kept too: rows become the table, the rest its notes. row()
    // pushes its row before printing it, so a line printed while the count is one ahead is a row.
    console.log = (...a: unknown[]) => {
      log(...a);
      const text = a.map(String).join(' ');
      if (rows.length === firstRow + r.rows.length) r.notes.push(...text.split('\n'));
      r.rows = rows.slice(firstRow);
    };
    try {
      await f();
    } finally {
      console.log = log;
    }
    r.rows = rows.slice(firstRow);
    r.loadAfter = os.loadavg();
    runs.push(r);
  };
  for (const [name, f] of BENCHES) if (!only.length || only.includes(name)) await section(name, f);
  // Minutes and gigabytes: only when asked for by name.
  if (only.includes('big')) await section('big', big);
  if (only.includes('perfetto1g')) await section('perfetto1g', () => perfetto(true));
  writeResults(runs);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
