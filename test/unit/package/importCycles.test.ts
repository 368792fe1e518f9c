// No import circles in the shipped code (issue #28 removed six; a circle makes load order decide
// what a module sees, and hides which of two files owns a type). Type-only imports count too:
// they are how the last ones came back.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(__dirname, '../../..');
const FOLDERS = ['core', 'protocol', 'node', 'cli', 'client', 'server', 'webview', 'hosts'];
// Our own sources: a static import or re-export of a relative path.
const IMPORT = /^\s*(?:import|export)\s[^'";]*?\bfrom\s*'(\.[^']*)'/gm;

function sources(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
    }
  };
  for (const d of FOLDERS) if (existsSync(join(ROOT, d))) walk(join(ROOT, d));
  return out;
}

/** The import graph's circles (strongly connected components of more than one file, or a file importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], onStack = new Set<string>();
  const found: string[][] = [];
  // Iterative Tarjan: the graph has hundreds of files, a recursion per import chain is avoided anyway.
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: [string, number][] = [[root, 0]];
    while (work.length) {
      const top = work[work.length - 1];
      const [v, i] = top;
      if (i === 0) {
        index.set(v, next);
        low.set(v, next++);
        stack.push(v);
        onStack.add(v);
      }
      const edges = graph.get(v) ?? [];
      if (i < edges.length) {
        top[1]++;
        const w = edges[i];
        if (!index.has(w)) work.push([w, 0]);
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const u = work[work.length - 1][0];
        low.set(u, Math.min(low.get(u)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const c: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          c.push(w);
        } while (w !== v);
        if (c.length > 1 || edges.includes(v)) found.push(c);
      }
    }
  }
  return found;
}

test('the import graph of the shipped code has no circle', () => {
  const graph = new Map<string, string[]>();
  for (const file of sources()) {
    const to: string[] = [];
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const base = resolve(dirname(file), m[1]);
      const target = [`${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p));
      if (target) to.push(relative(ROOT, target));
    }
    graph.set(relative(ROOT, file), to);
  }
  assert.ok(graph.size > 300, `read ${graph.size} files`);
  assert.deepEqual(circles(graph), []);
});

test('circles() finds a circle of two, of three and a file importing itself, and nothing in a chain', () => {
  const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
  assert.deepEqual(circles(g({ a: ['b'], b: ['c'], c: [] })), []);
  assert.deepEqual(circles(g({ a: ['b'], b: ['a'] })).map((c) => c.sort()), [['a', 'b']]);
  assert.deepEqual(circles(g({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] })).map((c) => c.sort()), [['a', 'b', 'c']]);
  assert.deepEqual(circles(g({ a: ['a'] })), [['a']]);
});
