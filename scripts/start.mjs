// `npm start`: build, package, and open examples/ in VS Code with the extension.
// - The desktop `code` on PATH: opened with --extensionDevelopmentPath on this checkout.
// - Otherwise: code-server (installed once into .vscode-test/ by scripts/vscode-setup.mjs) on
//   127.0.0.1, with the packaged .vsix installed into a profile kept in .vscode-test/start-profile;
//   open the printed URL in a browser. Ctrl+C stops it.
// Options: --code-server (skip the desktop `code`), --port N (default: 8080 when free, else any free
// port), --smoke (start, check the workbench page is served, stop: used by scripts/e2e.mjs),
// --vsix PATH (skip packaging).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ensureVSCode } from './vscode-setup.mjs';
import { packageVsix, ROOT } from './package-vsix.mjs';

const argv = process.argv.slice(2);
const smoke = argv.includes('--smoke');
const forceCodeServer = smoke || argv.includes('--code-server');
const portArg = argv.includes('--port') ? Number(argv[argv.indexOf('--port') + 1]) : undefined;
// --vsix PATH: use an already packaged .vsix (scripts/e2e.mjs passes the one it just built).
const vsixArg = argv.includes('--vsix') ? argv[argv.indexOf('--vsix') + 1] : undefined;
const EXAMPLES = join(ROOT, 'examples');

function say(msg) {
  process.stdout.write(`[start] ${msg}\n`);
}

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function portFree(port) {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

async function choosePort() {
  if (portArg) return portArg;
  if (!smoke && (await portFree(8080))) return 8080;
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function main() {
  const code = forceCodeServer ? undefined : which('code');
  if (code) {
    // The development host loads this checkout's package.json, and dist/ which packaging just built.
    packageVsix();
    say(`opening ${EXAMPLES} in ${code} with the extension from ${ROOT}`);
    const r = spawnSync(code, ['--extensionDevelopmentPath', ROOT, EXAMPLES], { stdio: 'inherit' });
    return r.status ?? 1;
  }
  const { codeServer } = ensureVSCode({ browser: false });
  const vsix = vsixArg ?? packageVsix();
  const profile = join(ROOT, '.vscode-test', smoke ? 'start-smoke-profile' : 'start-profile');
  const userDataDir = join(profile, 'user-data');
  const extensionsDir = join(profile, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  const env = { ...process.env, XDG_CONFIG_HOME: join(profile, 'xdg-config'), XDG_DATA_HOME: join(profile, 'xdg-data'), EXTENSIONS_GALLERY: '{}' };
  const inst = spawnSync(codeServer, ['--install-extension', vsix, '--force', '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir], { env, encoding: 'utf8' });
  if (inst.status !== 0) throw new Error(`installing the .vsix into code-server failed:\n${inst.stdout}${inst.stderr}`);
  const port = await choosePort();
  const config = join(profile, 'code-server.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const proc = spawn(codeServer, ['--config', config, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry',
    '--disable-update-check', '--disable-workspace-trust', '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, EXAMPLES],
  { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = () => {
    try {
      process.kill(-proc.pid, 'SIGTERM');
    } catch { /* already gone */ }
  };
  process.on('exit', stop);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => process.exit(0));
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(EXAMPLES)}`;
  let out = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start within 60 s:\n${out}`)), 60_000);
    const onData = (d) => {
      out += d.toString();
      if (!smoke) process.stdout.write(d);
      if (/HTTP server listening on/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (c) => reject(new Error(`code-server exited (${c}):\n${out}`)));
  });
  if (smoke) {
    const res = await fetch(url);
    const html = await res.text();
    if (!res.ok || !html.includes('workbench')) throw new Error(`GET ${url} gave ${res.status} without a workbench page`);
    say(`smoke test: ${url} serves the workbench`);
    return 0;
  }
  say('');
  say(`VS Code (code-server) with NPU Trace Inspector is running. Open:  ${url}`);
  say('Ctrl+C stops it.');
  await new Promise((resolve) => proc.once('exit', resolve));
  return 0;
}

main().then((c) => process.exit(c), (err) => {
  process.stderr.write(`[start] FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
