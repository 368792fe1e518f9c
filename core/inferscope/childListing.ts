import { HashSlots, hashString } from '../common/keyIndex';
import type { Element } from './model';

const pairHash = (parent: string, child: string) => (hashString(child) ^ Math.imul(hashString(parent), 0x9e3779b1)) >>> 0;

/**
 * Whether a scope with id `parent` lists `child` in its `child_ids` (any scope with that id: ids
 * may repeat), without a scan per child. Each listing is a (scope, position) pair of two Int32Arrays,
 * its strings read back from the scopes: a Set of "parent\0child" strings was ~30 MB for 260 000 scopes.
 */
export function childListing(scopes: readonly Element[]): (parent: string, child: string) => boolean {
  let n = 0;
  for (const s of scopes) {
    const c = s.obj?.child_ids;
    if (typeof s.obj?.id === 'string' && Array.isArray(c)) n += c.length;
  }
  const scope = new Int32Array(n);
  const at = new Int32Array(n);
  const parentOf = (e: number) => scopes[scope[e]].obj!.id as string;
  const childOf = (e: number) => (scopes[scope[e]].obj!.child_ids as string[])[at[e]];
  const table = new HashSlots((e) => pairHash(parentOf(e), childOf(e)), n);
  const find = (p: string, c: string, h: number) => table.find(h, (e) => childOf(e) === c && parentOf(e) === p);
  let e = 0;
  for (const s of scopes) {
    const id = s.obj?.id;
    const c = s.obj?.child_ids;
    if (typeof id !== 'string' || !Array.isArray(c)) continue;
    for (let k = 0; k < c.length; k++) {
      const x: unknown = c[k];
      if (typeof x !== 'string') continue;
      const h = pairHash(id, x);
      if (find(id, x, h) >= 0) continue;
      scope[e] = s.index;
      at[e] = k;
      table.insert(h, e++);
    }
  }
  return (p, c) => find(p, c, pairHash(p, c)) >= 0;
}
