import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

/** Marks the suite's lines among everything the workbench logs (the code-server harness filters on it). */
export const PREFIX = '[npu-e2e] ';

function say(line: string): void {
  // The extension host pins console.log (its setter is a no-op), so a reporter of our own prefixes lines.
  console.log(`${PREFIX}${line}`);
}

/** A spec-like reporter that prints through `say`, failures with their message and stack. */
class PrefixedReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    let depth = 0;
    const pad = () => '  '.repeat(depth);
    runner.on('suite', (s: Mocha.Suite) => {
      if (s.title) say(`${pad()}${s.title}`);
      depth++;
    });
    runner.on('suite end', () => depth--);
    runner.on('pass', (t: Mocha.Test) => say(`${pad()}✔ ${t.title} (${t.duration ?? 0} ms)`));
    runner.on('pending', (t: Mocha.Test) => say(`${pad()}- ${t.title} (pending)`));
    runner.on('fail', (t: Mocha.Test, err: Error) => {
      say(`${pad()}✖ ${t.fullTitle()}`);
      for (const l of String(err.stack ?? err.message).split('\n').slice(0, 12)) say(`${pad()}    ${l}`);
    });
    runner.once('end', () => {
      const s = runner.stats;
      say(`${s?.passes ?? 0} passing, ${s?.failures ?? 0} failing, ${s?.pending ?? 0} pending (${s?.duration ?? 0} ms)`);
    });
  }
}

/**
 * Entry point VS Code calls in the extension host (extensionTestsPath), under code-server
 * (scripts/e2e.mjs) or a downloaded desktop VS Code (scripts/e2e-electron.mjs). The test files sit
 * next to this bundle as separate *.test.js files.
 */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 90_000, color: false, reporter: PrefixedReporter });
  const grep = process.env.NPU_E2E_GREP;
  if (grep) mocha.grep(grep);
  for (const f of readdirSync(__dirname).filter((n) => n.endsWith('.test.js')).sort()) mocha.addFile(join(__dirname, f));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      // One machine-readable line for the harness, which prints the counts in its summary.
      say(`E2E-RESULT ${JSON.stringify({ passes: runner.stats?.passes ?? 0, failures, pending: runner.stats?.pending ?? 0 })}`);
      if (failures > 0) reject(new Error(`${failures} end-to-end test(s) failed`));
      else resolve();
    });
  });
}
