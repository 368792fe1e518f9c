/**
 * The environment for a child process whose cost a test measures (peak RSS, time): the runner's
 * environment less what makes node load more than the program. A test runner started with
 * `NODE_OPTIONS='--import tsx'` (or a coverage tool's `--require`) would otherwise hand its loader
 * to every `node dist/…` a test spawns: tsx alone costs a CLI hundreds of MB, so a limit assertion
 * measured the loader, not the program (issue #29, "CI robustness": peak 276 MB for a refusal
 * that takes 52 MB).
 */
export function programEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Preloads and loaders reach a child through NODE_OPTIONS only: node's --import/--require
  // arguments of the runner (process.execArgv) are not passed to a spawned node.
  delete env.NODE_OPTIONS;
  return { ...env, ...extra };
}
