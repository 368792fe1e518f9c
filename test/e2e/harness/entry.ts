// What the two harness entry points share (main.ts: the .vsix in code-server, started by
// scripts/e2e.mjs; web.ts: the browser build, started by scripts/e2e-web.mjs): the configuration
// their runner passes in NPU_E2E_CONFIG, the results folder, tagged log lines, screenshots, and
// how the process ends.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** What every runner passes. */
export interface BaseConfig {
  root: string;
  codeServer: string;
  chromium: string;
  base: string;
  workspace: string;
  updateScreenshot: boolean;
  keep: boolean;
}

export interface Harness<C extends BaseConfig> {
  cfg: C;
  /** test-results/ of the repository. */
  results: string;
  /** Where the workbench's console goes (`<tag>-console.log` in results), emptied at start. */
  consoleLog: string;
  say(msg: string): void;
  /** A screenshot of the page in results; resolves with its path (a failed shot is said, not thrown). */
  shoot(page: Page, name: string): Promise<string>;
}

/** Reads the runner's configuration; `tag` names the log lines and the console log, `runner` the script to use instead. */
export function harness<C extends BaseConfig>(tag: string, runner: string): Harness<C> {
  const cfg = JSON.parse(process.env.NPU_E2E_CONFIG ?? 'null') as C | null;
  if (!cfg) throw new Error(`run this through ${runner} (NPU_E2E_CONFIG is not set)`);
  const results = join(cfg.root, 'test-results');
  mkdirSync(results, { recursive: true });
  const consoleLog = join(results, `${tag}-console.log`);
  rmSync(consoleLog, { force: true });
  const say = (msg: string): void => {
    process.stdout.write(`[${tag}] ${msg}\n`);
  };
  const shoot = async (page: Page, name: string): Promise<string> => {
    const path = join(results, `${name}.png`);
    await page.screenshot({ path }).catch((e: unknown) => say(`screenshot ${name} failed: ${String(e)}`));
    return path;
  };
  return { cfg, results, consoleLog, say, shoot };
}

/** Runs `main` and exits with the code it resolves with (1 when it throws, said). */
export function runToExit(main: () => Promise<number>, say: (msg: string) => void): void {
  // On a signal (Ctrl+C, or the runner's overall time limit) exit through process.exit, so the
  // 'exit' handlers kill code-server's process group; Playwright closes Chromium on exit itself.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      say(`stopped by ${sig}`);
      process.exit(1);
    });
  }
  main().then((code) => process.exit(code), (err: unknown) => {
    say(`FAILED: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    process.exit(1);
  });
}
