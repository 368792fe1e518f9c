// Installs what the end-to-end suite needs to run a real VS Code on a machine that reaches only the
// npm registry and Debian: code-server 4.100.3 (VS Code 1.100.3 as a web server; 4.101+ needs
// Node 22) cached under .vscode-test/, and Debian's chromium, ripgrep and libkrb5-dev.
// Idempotent: a marker file written last makes a cached run return at once.
// The steps and why each is needed: ../shared/docs/real-vscode-testing.md (summarised inline).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, readFileSync, copyFileSync, symlinkSync, rmSync, lstatSync, chmodSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CACHE_DIR = join(ROOT, '.vscode-test', `code-server-${CODE_SERVER_VERSION}`);
const MARKER = join(CACHE_DIR, '.installed');
const APT_PACKAGES = ['chromium', 'ripgrep', 'libkrb5-dev'];
const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

function log(msg) {
  process.stderr.write(`[vscode-setup] ${msg}\n`);
}

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Runs a command, streaming its output to stderr; throws with the command line when it fails. */
function run(cmd, args, opts = {}) {
  log(`$ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.error) throw new Error(`${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`'${cmd} ${args.join(' ')}' failed with exit status ${r.status ?? r.signal}`);
}

/**
 * npm, when this script runs under `npm test`, exports the project's package and lifecycle variables;
 * nested installs into other prefixes must not see them. Root installs need unsafe_perm (code-server's
 * own checks) and yes=true (node-pty's install runs `npx node-gyp`, which this machine's npmrc refuses).
 */
function npmEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_(package|lifecycle)_/i.test(k) || /^npm_config_(local_prefix|prefix|global_prefix|save|dry_run)$/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, npm_config_unsafe_perm: 'true', npm_config_yes: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
}

export function chromiumPath() {
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p));
}

/** `browser`: Chromium for the tests; `build`: what installing code-server needs (rg, Kerberos headers). */
function missingSystemPackages({ browser, build }) {
  const missing = [];
  if (browser && !chromiumPath()) missing.push('chromium');
  if (build && !which('rg')) missing.push('ripgrep');
  if (build && !existsSync('/usr/include/gssapi/gssapi.h')) missing.push('libkrb5-dev');
  return missing;
}

export function ensureSystemPackages(need) {
  const missing = missingSystemPackages(need);
  if (missing.length === 0) return;
  if (!which('apt-get')) throw new Error(`missing ${missing.join(', ')} and no apt-get to install them; install them by hand`);
  const root = process.getuid?.() === 0;
  if (!root && !which('sudo')) throw new Error(`missing ${missing.join(', ')}: run as root or install them: apt-get install ${APT_PACKAGES.join(' ')}`);
  const apt = (...args) => (root ? run('apt-get', args, { env }) : run('sudo', ['-n', 'apt-get', ...args], { env }));
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log(`installing Debian packages (missing: ${missing.join(', ')})`);
  apt('-o', 'DPkg::Lock::Timeout=600', 'update');
  // Other processes (unattended upgrades, a parallel job) may hold the dpkg lock: wait for it.
  // Recommends stay on, as in the commands seen to work: they bring chromium's fonts and GL drivers.
  apt('-o', 'DPkg::Lock::Timeout=600', 'install', '-y', ...missing);
  const still = missingSystemPackages(need);
  if (still.length) throw new Error(`apt-get ran but ${still.join(', ')} still missing`);
}

function link(target, path) {
  try {
    if (lstatSync(path)) rmSync(path, { force: true, recursive: false });
  } catch { /* absent */ }
  symlinkSync(target, path);
}

function installCodeServer() {
  rmSync(CACHE_DIR, { recursive: true, force: true });
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(join(CACHE_DIR, 'package.json'), JSON.stringify({ name: 'vscode-test-cache', private: true }));
  const env = npmEnv();
  run('npm', ['install', '--no-save', '--ignore-scripts', '--no-package-lock', '--prefix', CACHE_DIR, `code-server@${CODE_SERVER_VERSION}`], { env });
  const vs = join(CACHE_DIR, 'node_modules', 'code-server', 'lib', 'vscode');
  run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-package-lock'], { cwd: vs, env });
  // @vscode/ripgrep downloads rg from GitHub in its install script; give it Debian's rg instead.
  const rgDir = join(vs, 'node_modules', '@vscode', 'ripgrep', 'bin');
  mkdirSync(rgDir, { recursive: true });
  copyFileSync(which('rg'), join(rgDir, 'rg'));
  chmodSync(join(rgDir, 'rg'), 0o755);
  run('npm', ['rebuild'], { cwd: vs, env });
  run('npm', ['rebuild', 'argon2'], { cwd: CACHE_DIR, env });
  link('node_modules', join(vs, 'node_modules.asar'));
  link('code-linux.sh', join(vs, 'bin', 'remote-cli', 'code-server'));
  link('browser-linux.sh', join(vs, 'bin', 'helpers', 'browser.sh'));
  run('npm', ['install', '--omit=dev', '--no-package-lock'], { cwd: join(vs, 'extensions'), env });
  writeFileSync(MARKER, `${CODE_SERVER_VERSION}\n`);
}

/**
 * Makes sure code-server (and Chromium unless `browser` is false) are installed; returns their
 * paths. Fast when cached.
 */
export function ensureVSCode({ browser = true } = {}) {
  const cached = existsSync(MARKER) && readFileSync(MARKER, 'utf8').trim() === CODE_SERVER_VERSION;
  ensureSystemPackages({ browser, build: !cached });
  if (!cached) {
    log(`installing code-server ${CODE_SERVER_VERSION} into ${CACHE_DIR} (one-time, a few minutes)`);
    const t0 = Date.now();
    installCodeServer();
    log(`installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  const codeServer = join(CACHE_DIR, 'node_modules', '.bin', 'code-server');
  if (!existsSync(codeServer)) throw new Error(`${codeServer} is missing; delete ${CACHE_DIR} and run again`);
  return { codeServer, chromium: chromiumPath() };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const r = ensureVSCode();
    log(`ready: code-server ${r.codeServer}, chromium ${r.chromium}`);
  } catch (err) {
    log(`FAILED: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
