import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A port that was free on 127.0.0.1 a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export interface Profile {
  userDataDir: string;
  extensionsDir: string;
  /** HOME-like dirs, so code-server writes its config and state there and not in the user's home. */
  env: NodeJS.ProcessEnv;
}

/** A throw-away VS Code profile: settings that keep start-up quiet and deterministic. */
export function makeProfile(base: string): Profile {
  const userDataDir = join(base, 'user-data');
  const extensionsDir = join(base, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': false,
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'git.enabled': false,
    'editor.minimap.enabled': false,
    'window.commandCenter': false,
    'chat.commandCenter.enabled': false,
    'workbench.colorTheme': 'Default Dark Modern',
    'workbench.reduceMotion': 'on',
    // A blinking cursor is sometimes hidden: the mouse journey measures where the cursor is.
    'editor.cursorBlinking': 'solid',
  }, null, 2));
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(base, 'xdg-config'),
    XDG_DATA_HOME: join(base, 'xdg-data'),
    XDG_CACHE_HOME: join(base, 'xdg-cache'),
    // No extension gallery (code-server defaults to open-vsx.org): the tests need no network.
    EXTENSIONS_GALLERY: '{}',
  };
  return { userDataDir, extensionsDir, env };
}

/** `code-server --install-extension` into the profile; throws with its output when it fails. */
export function installExtension(codeServer: string, vsix: string, p: Profile): string {
  const r = spawnSync(codeServer, ['--install-extension', vsix, '--force', '--extensions-dir', p.extensionsDir, '--user-data-dir', p.userDataDir],
    { env: p.env, encoding: 'utf8', timeout: 120_000 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0 || !/successfully installed/i.test(out)) throw new Error(`installing ${vsix} failed (status ${r.status}):\n${out}`);
  return out.trim();
}

export interface RunningServer {
  url: string;
  port: number;
  proc: ChildProcess;
  log: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts code-server on 127.0.0.1 and resolves once it says it listens. It runs in its own process
 * group so stop() (and an exit of this process) take its extension hosts and language servers too.
 */
export async function startCodeServer(codeServer: string, p: Profile, workspace: string, timeoutMs = 90_000): Promise<RunningServer> {
  const port = await freePort();
  const config = join(p.userDataDir, '..', 'code-server.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const proc = spawn(codeServer, [
    '--config', config, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--ignore-last-opened', '--user-data-dir', p.userDataDir, '--extensions-dir', p.extensionsDir, workspace,
  ], { env: p.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const killGroup = (sig: NodeJS.Signals) => {
    try {
      if (proc.pid) process.kill(-proc.pid, sig);
    } catch {
      // Already gone.
    }
  };
  const onExit = () => killGroup('SIGKILL');
  process.on('exit', onExit);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`code-server did not report listening within ${timeoutMs / 1000} s`)), timeoutMs);
    function fail(err: Error) {
      clearTimeout(timer);
      killGroup('SIGKILL');
      reject(new Error(`${err.message}\n--- code-server output ---\n${output}`));
    }
    const onData = (d: Buffer) => {
      output += d.toString('utf8');
      if (/HTTP server listening on/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onData);
    proc.on('error', (e) => fail(e));
    proc.on('exit', (code, sig) => fail(new Error(`code-server exited (${code ?? sig}) before listening`)));
  });
  proc.removeAllListeners('exit');
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    proc,
    log: () => output,
    stop: async () => {
      process.off('exit', onExit);
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((r) => proc.once('exit', () => r()));
      killGroup('SIGTERM');
      const t = setTimeout(() => killGroup('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
      // The extension host and language server are in the same group; make sure none lingers.
      killGroup('SIGKILL');
    },
  };
}
