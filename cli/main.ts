import { check } from './check';
import { NNAPI_STATS_USAGE, nnapiStats } from './nnapiStats';

const USAGE = `Usage:
  npu-trace check [--format text|json] [--max-problems N] <files...>
${NNAPI_STATS_USAGE}`;

type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = { check, 'nnapi-stats': nnapiStats };

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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`npu-trace: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
