import { CLOCK_ID, FIRST_SEQUENCE_CLOCK } from './fields';
import type { ClockEntry } from './packet';

/**
 * Clock domains of a trace. Timestamps of one domain share an origin; two domains share one only
 * when a ClockSnapshot relates them (then both are read on BOOTTIME, the trace clock Perfetto
 * defaults to). A clock with no snapshot tying it to BOOTTIME keeps a domain of its own: an SDK
 * trace stamped on the realtime clock (epoch nanoseconds) is shown from its own first event,
 * never placed on the boot-time axis of ftrace.
 */
export class Clocks {
  /** Clock key → offset to BOOTTIME in ns (BOOTTIME itself: 0). */
  private readonly toBoot = new Map<number, bigint>([[CLOCK_ID.boottime, 0n]]);
  /** Sequence clocks (64–127): unit and, for incremental ones, the last value. */
  private readonly seqClock = new Map<number, { unitNs: bigint; incremental: boolean; last: bigint }>();
  /** Domain key → its origin (first timestamp seen, in ns of the domain). */
  private readonly origins = new Map<number, bigint>();
  /** Domains seen, in order (0: BOOTTIME and every clock tied to it). */
  readonly domains: number[] = [];

  private key(clockId: number, seq: number): number {
    return clockId >= FIRST_SEQUENCE_CLOCK ? seq * 1024 + clockId : clockId;
  }

  snapshot(clocks: readonly ClockEntry[], seq: number): void {
    const boot = clocks.find((c) => c.id === CLOCK_ID.boottime);
    for (const c of clocks) {
      const k = this.key(c.id, seq);
      const abs = c.ts * c.unitNs;
      if (c.id >= FIRST_SEQUENCE_CLOCK) this.seqClock.set(k, { unitNs: c.unitNs, incremental: c.incremental, last: c.ts });
      if (boot && c !== boot && !this.toBoot.has(k)) this.toBoot.set(k, boot.ts - abs);
    }
  }

  /**
   * A packet's timestamp in ns on its domain: `{ domain, ns }` relative to the domain's origin
   * (the first timestamp it saw), exact while a trace spans less than 2^53 ns (104 days).
   */
  time(ts: bigint, clockId: number, seq: number): { domain: number; rel: number } {
    const k = this.key(clockId, seq);
    let ns = ts;
    const sc = clockId >= FIRST_SEQUENCE_CLOCK ? this.seqClock.get(k) : undefined;
    if (sc) {
      if (sc.incremental) {
        sc.last += ts;
        ns = sc.last;
      }
      ns *= sc.unitNs;
    }
    const off = this.toBoot.get(k);
    const domain = off === undefined ? k : 0;
    if (off !== undefined) ns += off;
    let o = this.origins.get(domain);
    if (o === undefined) {
      o = ns;
      this.origins.set(domain, o);
      this.domains.push(domain);
    }
    return { domain, rel: Number(ns - o) };
  }

  /** The origin of a domain, in ns of its clock (for the model's description). */
  origin(domain: number): bigint | undefined {
    return this.origins.get(domain);
  }

  /** A readable name of a domain. */
  static domainName(domain: number): string {
    if (domain === 0) return 'BOOTTIME';
    const names: Record<number, string> = { 1: 'REALTIME', 2: 'REALTIME_COARSE', 3: 'MONOTONIC', 4: 'MONOTONIC_COARSE', 5: 'MONOTONIC_RAW' };
    if (domain < FIRST_SEQUENCE_CLOCK) return names[domain] ?? `clock ${domain}`;
    return `clock ${domain % 1024} of sequence ${Math.floor(domain / 1024)}`;
  }
}
