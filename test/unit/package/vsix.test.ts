import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { listZip, readZipEntry, type ZipEntry } from './zip';

// Packages the extension with the project's packaging script, from the current dist/ bundles (built
// by `npm run build` before the unit suites) into a temporary .vsix, without rebuilding dist/: the
// LSP suites use it concurrently.
const ROOT = resolve(__dirname, '../../..');
let tmp = '';
let vsix: Buffer;
let entries: ZipEntry[];
let names: Set<string>;

before(() => {
  for (const f of ['dist/client.js', 'dist/server.js', 'dist/cli.js']) {
    assert.ok(existsSync(join(ROOT, f)), `${f} is missing: run \`npm run build\` before the unit tests`);
  }
  tmp = mkdtempSync(join(tmpdir(), 'vsix-test-'));
  const out = join(tmp, 'test.vsix');
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/package-vsix.mjs'), '--no-build', '--out', out],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(r.status, 0, `packaging failed:\n${r.stdout}\n${r.stderr}`);
  vsix = readFileSync(out);
  entries = listZip(vsix);
  names = new Set(entries.map((e) => e.name));
});

after(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Files the packaged extension may hold; anything else (sources, maps, tests, node_modules) is a leak. */
const ALLOWED = [
  /^extension\.vsixmanifest$/, /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/, /^extension\/readme\.md$/, /^extension\/changelog\.md$/, /^extension\/LICENSE\.txt$/,
  /^extension\/images\/[\w-]+\.png$/,
  /^extension\/walkthrough\/(example\.trace\.jsonl|example\.cmdq\.json|example\.pt\.trace\.json|example\.kprof\.npy|example\.kprof\.names\.txt|[\w-]+\.png)$/,
  /^extension\/dist\/[\w/-]+\.(js|css)$/,
  /^extension\/syntaxes\/[\w.-]+\.json$/,
  /^extension\/schemas\/[\w/.-]+\.json$/,
];

test('the .vsix holds only allow-listed files', () => {
  const extra = [...names].filter((n) => !ALLOWED.some((re) => re.test(n)));
  assert.deepEqual(extra, [], `unexpected files in the .vsix: ${extra.join(', ')}`);
  for (const n of names) {
    assert.ok(!/\.(map|ts)$|node_modules|^extension\/(test|client|server|core|cli|scripts|examples)\//.test(n), `${n} must not ship`);
  }
});

test('the .vsix holds the bundles and the marketplace files', () => {
  for (const f of ['dist/client.js', 'dist/server.js', 'dist/cli.js', 'dist/timelineWorker.js', 'dist/timelineReadWorker.js', 'dist/web/extension.js', 'dist/web/server.js', 'dist/webview/webview.js', 'dist/webview/webview.css', 'package.json', 'readme.md', 'changelog.md', 'LICENSE.txt', 'images/icon.png']) {
    assert.ok(names.has(`extension/${f}`), `extension/${f} is missing from the .vsix`);
  }
});

test('the .vsix holds the images the README shows, and no other image', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const shown = new Set([...readme.matchAll(/!\[[^\]]*\]\((images\/[\w-]+\.png)\)/g)].map((m) => m[1]));
  assert.ok(shown.size >= 4, `the README shows ${shown.size} images`);
  shown.add('images/icon.png');
  const packed = [...names].filter((n) => n.startsWith('extension/images/')).map((n) => n.slice('extension/'.length));
  assert.deepEqual(packed.sort(), [...shown].sort());
});

test('the .vsix holds every file the walkthrough shows or opens', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { walkthroughs: { steps: { media: { image?: string; markdown?: string } }[] }[] } };
  const shown = pkg.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.image ?? s.media.markdown ?? ''));
  // The examples the walkthrough's commands copy and open (client/walkthrough.ts).
  for (const f of [...shown, 'walkthrough/example.trace.jsonl', 'walkthrough/example.cmdq.json', 'walkthrough/example.pt.trace.json', 'walkthrough/example.kprof.npy', 'walkthrough/example.kprof.names.txt']) {
    assert.ok(existsSync(join(ROOT, f)), `${f} is named by the walkthrough but missing from the repository`);
    assert.ok(names.has(`extension/${f}`), `extension/${f} is missing from the .vsix`);
  }
});

/** Files under `dir`, relative to it, recursively. */
function walk(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(dir, join(prefix, d.name)) : [join(prefix, d.name).split(sep).join('/')]);
}

test('everything the build writes to dist/ (but source maps) is in the .vsix: the code loads it by path', () => {
  // The client loads some bundles by path at run time (the server, the timeline worker, the
  // webview's script and style), which package.json does not name: ship all of dist/. Not the CLI
  // bundle's code cache (cli/loadBundle.ts): it is for the node that built it and the very file it
  // was made from, and the CLI runs without it.
  const built = walk(join(ROOT, 'dist')).filter((f) => !f.endsWith('.map') && !f.endsWith('.cache'));
  const missing = built.filter((f) => !names.has(`extension/dist/${f}`));
  assert.deepEqual(missing, [], `built but not packaged (see .vscodeignore): ${missing.join(', ')}`);
});

/** Every relative file path the manifest points to: main, bin, icon and inside contributes. */
function manifestPaths(pkg: Record<string, unknown>): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string' && !/^[a-z]+:/i.test(v) && !v.startsWith('$(')) out.push(v.replace(/^\.\//, ''));
  };
  add(pkg.main);
  add(pkg.icon);
  if (pkg.bin && typeof pkg.bin === 'object') Object.values(pkg.bin).forEach(add);
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (['path', 'url', 'configuration', 'icon', 'light', 'dark'].includes(k) && typeof x === 'string') add(x);
        else walk(x);
      }
    }
  };
  walk(pkg.contributes);
  return out;
}

test('everything package.json points to is inside the .vsix', () => {
  const e = entries.find((x) => x.name === 'extension/package.json');
  assert.ok(e);
  const pkg = JSON.parse(readZipEntry(vsix, e).toString('utf8')) as Record<string, unknown>;
  const paths = manifestPaths(pkg);
  // The manifest as shipped must point at the client bundle and the grammar, or the walk above is broken.
  assert.ok(paths.includes('dist/client.js') && paths.some((p) => p.startsWith('syntaxes/')), `paths found: ${paths.join(', ')}`);
  const missing = paths.filter((p) => !names.has(`extension/${p}`));
  assert.deepEqual(missing, [], `package.json points to files missing from the .vsix: ${missing.join(', ')}`);
});

test('the marketplace fields are filled in', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  for (const k of ['displayName', 'description', 'icon', 'categories', 'keywords', 'repository', 'license', 'publisher', 'version']) {
    assert.ok(pkg[k], `package.json lacks ${k}`);
  }
  assert.equal(pkg.license, 'MIT');
});

/** Unpacks the .vsix under the temp dir, where no node_modules is reachable from the bundles. */
function unpack(): string {
  const dir = join(tmp, 'unpacked');
  for (const e of entries) {
    const p = join(dir, e.name);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, readZipEntry(vsix, e));
  }
  return join(dir, 'extension');
}

test('the shipped bundles run without node_modules: the CLI checks a trace, the server answers initialize', async () => {
  const ext = unpack();
  const trace = join(tmp, 'one.trace.jsonl');
  writeFileSync(trace, '{"event_type":"CMD_START","t_cycle":1,"cmd_id":1}\n');
  const cli = spawnSync(process.execPath, [join(ext, 'dist/cli.js'), 'check', '--format', 'json', trace], { encoding: 'utf8' });
  assert.equal(cli.status, 1, `cli: ${cli.stderr}`);
  const codes = (JSON.parse(cli.stdout) as { diagnostics: { code: string }[] }[])[0].diagnostics.map((d) => d.code);
  assert.deepEqual(codes, ['trace.unmatched-start']);

  const server = spawn(process.execPath, [join(ext, 'dist/server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    server.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const reply = await new Promise<string>((res, rej) => {
      let buf = '';
      server.stdout.on('data', (d: Buffer) => {
        buf += d.toString('utf8');
        const m = /Content-Length: (\d+)\r\n\r\n/.exec(buf);
        if (m && Buffer.byteLength(buf.slice(m.index + m[0].length)) >= Number(m[1])) res(buf.slice(m.index + m[0].length));
      });
      server.on('exit', (code) => rej(new Error(`server exited with ${code} before answering`)));
    });
    const msg = JSON.parse(reply) as { id: number; result: { capabilities: { hoverProvider?: boolean } } };
    assert.equal(msg.id, 1);
    assert.equal(msg.result.capabilities.hoverProvider, true);
  } finally {
    server.kill();
  }
});
