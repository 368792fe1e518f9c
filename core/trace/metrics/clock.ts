/**
 * Nanoseconds per cycle of a trace: from the `t_ns` of its first and last events that carry one
 * (a straight line through them), else from the clock of its TRACE_META; undefined when unknown.
 */
export class ClockEstimate {
  // Plain numbers, not pairs: a sample per event must allocate nothing (NaN: none yet).
  private firstT = NaN;
  private firstNs = NaN;
  private lastT = NaN;
  private lastNs = NaN;
  clockGhz: number | undefined;

  sample(t: number, tNs: number | undefined): void {
    if (tNs === undefined) return;
    if (this.firstT !== this.firstT) {
      this.firstT = t;
      this.firstNs = tNs;
    }
    this.lastT = t;
    this.lastNs = tNs;
  }

  /** The first and last samples so far (NaN: none), all that counts of them (`sampleStretch` takes them elsewhere). */
  ends(): { firstT: number; firstNs: number; lastT: number; lastNs: number } {
    return { firstT: this.firstT, firstNs: this.firstNs, lastT: this.lastT, lastNs: this.lastNs };
  }

  /** The first and last samples of a later stretch of the trace (NaN: it had none): all that counts of it. */
  sampleStretch(firstT: number, firstNs: number, lastT: number, lastNs: number): void {
    if (firstT !== firstT) return;
    this.sample(firstT, firstNs);
    this.sample(lastT, lastNs);
  }

  nsPerCycle(): number | undefined {
    let ns: number | undefined;
    const has = this.firstT === this.firstT;
    if (has && this.lastT > this.firstT) ns = (this.lastNs - this.firstNs) / (this.lastT - this.firstT);
    else if (has && this.firstT > 0) ns = this.firstNs / this.firstT;
    else if (this.clockGhz) ns = 1 / this.clockGhz;
    return ns !== undefined && ns > 0 && Number.isFinite(ns) ? ns : undefined;
  }
}
