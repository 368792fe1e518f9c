import { ANALYZE_USAGE, analyzeCommand } from './analyze';
import { check } from './check';
import { CMDQ_GRAPH_USAGE, cmdqGraph } from './cmdqGraph';
import { DIFF_USAGE, diff } from './diff';
import { KPROF_USAGE, kprof } from './kprof';
import { EXPORT_USAGE, exportCommand } from './export';
import { NNAPI_STATS_USAGE, nnapiStats } from './nnapiStats';
import { runProcess } from './runProcess';
import { STATS_USAGE, stats } from './stats';

const USAGE = `Usage:
  npu-trace check [--format text|json|sarif|github] [--fail-on error|warning|information] [--max-problems N] <files, directories, globs...>
${STATS_USAGE}${DIFF_USAGE}${NNAPI_STATS_USAGE}${ANALYZE_USAGE}${KPROF_USAGE}${EXPORT_USAGE}${CMDQ_GRAPH_USAGE}`;

type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = { check, stats, 'nnapi-stats': nnapiStats, analyze: analyzeCommand, kprof, export: exportCommand, 'cmdq-graph': cmdqGraph, diff };

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const run = cmd ? COMMANDS[cmd] : undefined;
  if (!run) {
    process.stderr.write(`npu-trace: ${cmd ? `unknown command '${cmd}'` : 'missing command'}\n${USAGE}`);
    return 2;
  }
  return run(rest);
}

runProcess(main, process.argv.slice(2));
