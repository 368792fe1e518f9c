/**
 * Nanoseconds per cycle of a trace: from the `t_ns` of its first and last events that carry one
 * (a straight line through them), else from the clock of its TRACE_META; undefined when unknown.
 */
export class ClockEstimate {
  private first: [number, number] | undefined;
  private last: [number, number] | undefined;
  clockGhz: number | undefined;

  sample(t: number, tNs: number | undefined): void {
    if (tNs === undefined) return;
    this.first ??= [t, tNs];
    this.last = [t, tNs];
  }

  nsPerCycle(): number | undefined {
    let ns: number | undefined;
    if (this.first && this.last && this.last[0] > this.first[0]) ns = (this.last[1] - this.first[1]) / (this.last[0] - this.first[0]);
    else if (this.first && this.first[0] > 0) ns = this.first[1] / this.first[0];
    else if (this.clockGhz) ns = 1 / this.clockGhz;
    return ns !== undefined && ns > 0 && Number.isFinite(ns) ? ns : undefined;
  }
}
