/**
 * Estimates server clock − local clock from `Date` headers. A `Date` of D (whole seconds) means the
 * server's clock read somewhere in [D, D+1000) while the request was between `sentAt` and `receivedAt`,
 * so skew ∈ [D − receivedAt, D + 1000 − sentAt]. Intersecting these intervals over many responses
 * narrows the estimate to a few ms, which is what lets pacing wait exactly until a window resets.
 */
export class ClockSkew {
  private lower = -Infinity;
  private upper = Infinity;

  observe(serverDate: number, sentAt: number, receivedAt: number): void {
    const lo = serverDate - receivedAt;
    const hi = serverDate + 1000 - sentAt;
    if (lo > this.upper || hi < this.lower) {
      // A clock moved: start again from this sample.
      this.lower = lo;
      this.upper = hi;
      return;
    }
    this.lower = Math.max(this.lower, lo);
    this.upper = Math.min(this.upper, hi);
  }

  /** The skew to assume when waiting for a server instant: the latest local time it can map to. */
  get conservative(): number {
    return Number.isFinite(this.lower) ? this.lower : 0;
  }

  get known(): boolean {
    return Number.isFinite(this.lower);
  }
}
