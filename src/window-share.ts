/**
 * What one process can tell about the other processes on its key from its own answers alone (no shared
 * store: n8n workers and matrix jobs share nothing). The server counts every call of the window in
 * `X-RateLimit-Remaining`, so after any answer of ours:
 *   used by all = limit − remaining;  used by others = used by all − ours counted so far.
 * Ours counted so far are the answers we got in this window, plus calls still in flight or whose answer
 * was lost (the server may have counted them already; assuming it did keeps a lone process from seeing
 * phantom sharers). The ratio (ours + others) / ours is how many processes' worth of demand share the
 * window with us: the number of sharers when each takes an equal part.
 */
export interface WindowObservation {
  limit: number;
  remaining: number;
  /** Server unix seconds at which the window ends. */
  reset: number;
  /** Our calls not yet answered when this answer came (they may be counted already). */
  unanswered: number;
}

export class WindowShare {
  private reset?: number;
  private limit = 0;
  private minRemaining = 0;
  private ours = 0;
  private uncertain = 0;
  private others = 0;
  /** The estimate at the end of the last window we saw: it holds until this window says more. */
  private previous = 1;
  private shortestWindowMs?: number;
  private othersAtFirst = 0; // others' calls already counted at our first answer in the window

  /** Learns from one answer of ours that the server counted. */
  observe(o: WindowObservation): void {
    if (this.reset !== undefined && o.reset < this.reset) return; // a late answer from a closed window
    if (this.reset === undefined || o.reset > this.reset) {
      if (this.reset !== undefined) {
        this.previous = this.estimate(true);
        const gap = (o.reset - this.reset) * 1000;
        this.shortestWindowMs = Math.min(this.shortestWindowMs ?? gap, gap);
      }
      this.reset = o.reset;
      this.minRemaining = o.remaining;
      this.ours = 0;
      this.uncertain = 0;
      this.others = 0;
    }
    this.limit = o.limit;
    this.ours += 1;
    this.minRemaining = Math.min(this.minRemaining, o.remaining);
    const others = this.limit - this.minRemaining - this.ours - o.unanswered - this.uncertain;
    this.others = Math.max(this.others, others);
    if (this.ours === 1) this.othersAtFirst = this.others;
  }

  /**
   * A call of ours ended without a count: no answer, or a 429 (not processed, says the spec, but a
   * server may count it; the sandbox's injected 429s are counted). Taken as ours, so a lone process
   * never reads its own refused or unanswered calls as somebody else's.
   */
  uncounted(): void {
    if (this.reset !== undefined) this.uncertain += 1;
  }

  /**
   * Rounded to whole processes, at least 2 once anyone else was seen. Rounding is what pulls shares
   * towards equal: processes whose shares are near each other round to the same count and so pace
   * alike, where a ratio kept as measured would preserve whatever split a start made. It rounds up
   * only from x.7, so two processes at 40/60 both count 2 and even out rather than settling as 3 and 2.
   * `sinceFirst` counts only what others spent between our first and latest answers, per interval
   * between our calls: a process that joined late must not carry into the next window the calls others
   * made before it arrived, or it would pace as one of many and stay small.
   */
  private estimate(sinceFirst: boolean): number {
    if (this.ours === 0 || this.others === 0) return 1;
    const ratio = sinceFirst
      ? this.ours > 1
        ? 1 + (this.others - this.othersAtFirst) / (this.ours - 1)
        : 2
      : (this.ours + this.others) / this.ours;
    return Math.max(2, Math.floor(ratio + 0.3));
  }

  /**
   * Processes' worth of demand on this key, at least the last window's: the others may simply not have
   * sent yet in this one. With nobody seen last window (a cold start), everything others spent in this
   * one counts, so a herd of processes starting together does not take itself for two. 1 only after a
   * whole window in which nobody else spent anything.
   */
  get sharers(): number {
    return Math.max(this.previous, this.estimate(this.previous > 1));
  }

  /** The window length, once two windows were seen (resets one window apart, or a multiple of it). */
  get windowMs(): number | undefined {
    return this.shortestWindowMs;
  }
}

/**
 * The spacing before our next call when others share the key: our fair part of what is left,
 * `remaining / sharers` calls, spread over the time to the reset, so together the processes spend the
 * window evenly instead of all at its start. Randomised (×0.5 … ×1.5) so processes that woke at the
 * same reset do not stay in step; `backoff` (≥ 1) stretches it after 429s.
 */
export function shareSpacing(p: { sharers: number; remaining: number; msToReset: number; backoff: number; random: number }): number {
  if (p.sharers <= 1 || p.remaining <= 0 || p.msToReset <= 0) return 0;
  return ((p.msToReset * p.sharers) / p.remaining) * p.backoff * (0.5 + p.random);
}
