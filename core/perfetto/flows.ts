import type { Links } from '../timeline/model';
import type { Flows } from './reader';

/** Flow steps kept (further ones are not drawn): a file of flows alone cannot grow the model without limit. */
export const MAX_FLOW_STEPS = 1_000_000;

/**
 * The flows of SDK track events as the model's arrows: every event naming a flow id in `flow_ids`
 * is a step of that flow, one naming it in `terminating_flow_ids` its last; steps of one id are
 * taken in time order (ties in file order) and each gets an arrow from the one before, as the
 * Perfetto UI draws them. After a terminating step the id starts a new flow. Steps are collected
 * as items are added (slices come when they end) and bound when the model is laid out.
 */
export class PerfettoFlows {
  private readonly steps = new Map<bigint, { item: number; t: number; end: boolean }[]>();
  private count = 0;
  /** Steps left out by the cap. */
  dropped = 0;

  /** `item`: the item's index as added to the assembler; `t`: its start. */
  add(item: number, t: number, flows: Flows): void {
    const put = (id: bigint, end: boolean) => {
      if (this.count >= MAX_FLOW_STEPS) {
        this.dropped++;
        return;
      }
      this.count++;
      let list = this.steps.get(id);
      if (!list) this.steps.set(id, (list = []));
      list.push({ item, t, end });
    };
    for (const id of flows.ids) put(id, false);
    for (const id of flows.terminating) put(id, true);
  }

  /** The arrows in model item order (`order[k]`: the added index of model item k), sorted by the earlier start of their two items; undefined with none. */
  links(order: Uint32Array, start: Float64Array): Links | undefined {
    let n = 0;
    for (const added of order) n = Math.max(n, added + 1);
    // Items the model left out (none today) have no index.
    const index = new Uint32Array(n).fill(0xffffffff);
    order.forEach((added, k) => (index[added] = k));
    const pairs: [number, number][] = [];
    for (const list of this.steps.values()) {
      // Stable: ties keep file order.
      list.sort((a, b) => a.t - b.t);
      let prev: number | undefined;
      for (const s of list) {
        const k = s.item < index.length ? index[s.item] : 0xffffffff;
        if (k === 0xffffffff) continue;
        if (prev !== undefined && prev !== k) pairs.push([prev, k]);
        prev = s.end ? undefined : k;
      }
    }
    if (!pairs.length) return undefined;
    pairs.sort((a, b) => Math.min(start[a[0]], start[a[1]]) - Math.min(start[b[0]], start[b[1]]));
    return { from: Uint32Array.from(pairs, (p) => p[0]), to: Uint32Array.from(pairs, (p) => p[1]) };
  }
}
