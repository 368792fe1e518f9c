/**
 * Runs one CLI entry as the whole process: its result is the exit status, a thrown error is exit 2
 * with its message, and a reader closing the pipe early (`npu-trace check big.trace.jsonl | head`)
 * is not a crash. Shared by the full CLI and the entries bundled alone for start-up.
 */
export function runProcess(main: (argv: string[]) => Promise<number>, argv: string[]): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
  });
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`npu-trace: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 2;
    },
  );
}
