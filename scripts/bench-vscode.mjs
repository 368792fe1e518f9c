// The "Show Timeline → painted in the real VS Code" figures of `npm run bench -- vscode`
// (bench/vscode.ts runs this): code-server and Chromium as the end-to-end tests set them up, the
// .vsix packaged and installed, then bench/vscodeHarness.ts measures and writes its figures to the
// JSON file named by the first argument.
import { packageVsix, ROOT } from './package-vsix.mjs';
import { codeServerTools, failer, prepareWorkspace, runHarness } from './e2e-build.mjs';

const out = process.argv[2];
const fail = failer('bench-vscode');
if (!out) fail('usage: node scripts/bench-vscode.mjs <figures.json>');
const tools = codeServerTools(fail);
let vsix;
try {
  vsix = packageVsix();
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
const { base, workspace } = prepareWorkspace();
const config = { root: ROOT, codeServer: tools.codeServer, chromium: tools.chromium, vsix, base, workspace, updateScreenshot: false, keep: false, out };
process.exit(runHarness('bench-vscode', 'bench/vscodeHarness.ts', config, 25 * 60_000) ? 0 : 1);
