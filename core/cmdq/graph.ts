import { depId, type CmdqEntry } from './model';

/**
 * The dependency graph of a queue, by entry index. `deps_before` names ids; an id resolves to the
 * first entry carrying it (a duplicate id is reported and otherwise ignored). Edges point from an
 * entry to what it waits for. Stored as flat arrays (CSR) because a queue has 100k+ entries.
 */
export class CmdqGraph {
  readonly n: number;
  /** Edges of entry i: `targets[edgeStart[i] .. edgeStart[i+1])`, -1 for an unresolved id. */
  readonly edgeStart: Int32Array;
  readonly targets: Int32Array;
  /** Reverse edges: the entries that wait for entry i. */
  readonly revStart: Int32Array;
  readonly rev: Int32Array;
  private readonly idIndex = new Map<number, number>();
  private readonly denseIds: Int32Array;
  private _depth: Int32Array | undefined;

  constructor(readonly entries: readonly CmdqEntry[]) {
    const n = (this.n = entries.length);
    // Ids normally equal indexes: a dense table serves those, a map the rest.
    this.denseIds = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      const id = entries[i].id;
      if (id === undefined) continue;
      if (id < n) {
        if (this.denseIds[id] < 0) this.denseIds[id] = i;
      } else if (!this.idIndex.has(id)) this.idIndex.set(id, i);
    }
    let m = 0;
    for (const e of entries) m += e.deps?.length ?? 0;
    this.edgeStart = new Int32Array(n + 1);
    this.targets = new Int32Array(m);
    const indeg = new Int32Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) {
      this.edgeStart[i] = k;
      const deps = entries[i].deps;
      if (!deps) continue;
      for (let j = 0; j < deps.length; j++) {
        const id = depId(deps[j]);
        const t = id < 0 ? -1 : this.indexOf(id);
        this.targets[k++] = t;
        if (t >= 0) indeg[t]++;
      }
    }
    this.edgeStart[n] = k;
    this.revStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) this.revStart[i + 1] = this.revStart[i] + indeg[i];
    this.rev = new Int32Array(this.revStart[n]);
    const fill = this.revStart.slice(0, n);
    for (let i = 0; i < n; i++) {
      for (let e = this.edgeStart[i]; e < this.edgeStart[i + 1]; e++) {
        const t = this.targets[e];
        // Several edges i → t (a duplicate dep) still make i one dependent of t.
        if (t >= 0 && (fill[t] === this.revStart[t] || this.rev[fill[t] - 1] !== i)) this.rev[fill[t]++] = i;
      }
    }
    // Dedup above may leave slack at the end of a node's slice; record the real ends.
    this.revEnd = fill;
  }

  private readonly revEnd: Int32Array;

  /** Index of the entry with this id, or -1. */
  indexOf(id: number): number {
    if (id < this.n) return this.denseIds[id];
    return this.idIndex.get(id) ?? -1;
  }

  /** The `k`-th of `dependents(i)`, for k < dependentCount(i), without a subarray per call. */
  dependent(i: number, k: number): number {
    return this.rev[this.revStart[i] + k];
  }

  /** Entries that list entry i in their deps_before (each once). */
  dependents(i: number): Int32Array {
    return this.rev.subarray(this.revStart[i], this.revEnd[i]);
  }

  dependentCount(i: number): number {
    return this.revEnd[i] - this.revStart[i];
  }

  /** Entries entry i waits for (resolved, possibly repeated). */
  deps(i: number): number[] {
    const out: number[] = [];
    for (let e = this.edgeStart[i]; e < this.edgeStart[i + 1]; e++) if (this.targets[e] >= 0) out.push(this.targets[e]);
    return out;
  }

  /**
   * Length of the longest dependency chain below each entry (0 for an entry that waits for nothing).
   * Iterative post-order DFS; an edge back into the current path (a cycle) counts as 0.
   */
  depth(i: number): number {
    return (this._depth ??= this.computeDepths())[i];
  }

  private computeDepths(): Int32Array {
    const n = this.n;
    const depth = new Int32Array(n).fill(-1);
    const state = new Uint8Array(n); // 0 new, 1 on stack, 2 done
    const stack = new Int32Array(n);
    const cursor = new Int32Array(n);
    for (let root = 0; root < n; root++) {
      if (state[root]) continue;
      let sp = 0;
      stack[sp++] = root;
      state[root] = 1;
      cursor[root] = this.edgeStart[root];
      while (sp > 0) {
        const v = stack[sp - 1];
        if (cursor[v] < this.edgeStart[v + 1]) {
          const t = this.targets[cursor[v]++];
          if (t >= 0 && state[t] === 0) {
            state[t] = 1;
            cursor[t] = this.edgeStart[t];
            stack[sp++] = t;
          }
          continue;
        }
        let d = 0;
        for (let e = this.edgeStart[v]; e < this.edgeStart[v + 1]; e++) {
          const t = this.targets[e];
          if (t >= 0 && state[t] === 2 && depth[t] + 1 > d) d = depth[t] + 1;
          else if (t >= 0 && state[t] === 1 && d < 1) d = 1;
        }
        depth[v] = d;
        state[v] = 2;
        sp--;
      }
    }
    return depth;
  }

  /** Entries nothing else waits for, apart from END entries (which wait for everything). */
  leaves(isEnd: (i: number) => boolean): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.n; i++) {
      if (isEnd(i)) continue;
      let waited = false;
      // Indexes, not dependents(): a subarray per entry was most of this pass on 100k entries.
      for (let k = this.revStart[i]; k < this.revEnd[i]; k++) {
        if (!isEnd(this.rev[k])) {
          waited = true;
          break;
        }
      }
      if (!waited) out.push(i);
    }
    return out;
  }

  /** Every entry `from` waits for, directly or transitively (marks in a fresh array). */
  ancestors(from: number): Uint8Array {
    const seen = new Uint8Array(this.n);
    const stack = [from];
    seen[from] = 1;
    while (stack.length) {
      const v = stack.pop()!;
      for (let e = this.edgeStart[v]; e < this.edgeStart[v + 1]; e++) {
        const t = this.targets[e];
        if (t >= 0 && !seen[t]) {
          seen[t] = 1;
          stack.push(t);
        }
      }
    }
    return seen;
  }

  /** Strongly connected components with more than one entry (the dependency cycles), iteratively. */
  cycles(): number[][] {
    const n = this.n;
    const index = new Int32Array(n).fill(-1);
    const low = new Int32Array(n);
    const onStack = new Uint8Array(n);
    const sccStack: number[] = [];
    const call: number[] = [];
    const cursor = new Int32Array(n);
    const out: number[][] = [];
    let counter = 0;
    for (let root = 0; root < n; root++) {
      if (index[root] >= 0) continue;
      call.push(root);
      index[root] = low[root] = counter++;
      cursor[root] = this.edgeStart[root];
      sccStack.push(root);
      onStack[root] = 1;
      while (call.length) {
        const v = call[call.length - 1];
        if (cursor[v] < this.edgeStart[v + 1]) {
          const t = this.targets[cursor[v]++];
          if (t < 0 || t === v) continue;
          if (index[t] < 0) {
            index[t] = low[t] = counter++;
            cursor[t] = this.edgeStart[t];
            sccStack.push(t);
            onStack[t] = 1;
            call.push(t);
          } else if (onStack[t] && index[t] < low[v]) low[v] = index[t];
          continue;
        }
        call.pop();
        if (call.length) {
          const u = call[call.length - 1];
          if (low[v] < low[u]) low[u] = low[v];
        }
        if (low[v] === index[v]) {
          const comp: number[] = [];
          let w: number;
          do {
            w = sccStack.pop()!;
            onStack[w] = 0;
            comp.push(w);
          } while (w !== v);
          if (comp.length > 1) out.push(comp.sort((a, b) => a - b));
        }
      }
    }
    return out;
  }

  /** One concrete cycle through the smallest member of a component, as a list of entry indexes. */
  cycleIn(comp: readonly number[]): number[] {
    const inComp = new Set(comp);
    const start = comp[0];
    const prev = new Map<number, number>();
    const queue = [start];
    for (let qi = 0; qi < queue.length; qi++) {
      const v = queue[qi];
      for (let e = this.edgeStart[v]; e < this.edgeStart[v + 1]; e++) {
        const t = this.targets[e];
        if (t === start) {
          const path = [v];
          for (let x = v; x !== start; ) {
            x = prev.get(x)!;
            path.push(x);
          }
          return path.reverse();
        }
        if (t >= 0 && inComp.has(t) && !prev.has(t)) {
          prev.set(t, v);
          queue.push(t);
        }
      }
    }
    return [start];
  }
}
