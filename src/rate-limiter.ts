import { ClockSkew } from './clock-skew.ts';
import { ApiError } from './errors.ts';
import type { RateLimitHeaders } from './headers.ts';
import type { Runtime } from './runtime.ts';

/** Margin added to a computed window reset, for the `Date` header's 1 s resolution and network jitter. */
const RESET_MARGIN_MS = 30;
const UNKNOWN_SKEW_MARGIN_MS = 1000;

/** How long one logical operation may still spend waiting for rate windows. */
export class WaitBudget {
  waitedMs = 0;
  readonly maxWaitMs: number;
  constructor(maxWaitMs: number) {
    this.maxWaitMs = maxWaitMs;
  }

  reserve(ms: number, why: string): void {
    if (this.waitedMs + ms > this.maxWaitMs) {
      throw new ApiError({
        status: 429,
        type: 'rate_limit_error',
        code: 'rate_limit_wait_exceeded',
        message: `${why} would need a wait of ${Math.ceil(ms / 1000)} s, beyond the allowed maximum wait of ${Math.round(this.maxWaitMs / 1000)} s (${Math.round(this.waitedMs / 1000)} s already spent).`,
      });
    }
    this.waitedMs += ms;
  }
}

export type WaitReason = 'pacing' | 'retry_after';

/**
 * Paces one API key from the service's own headers (spec §8) so that a process does not spend 429s:
 * when the window's remaining calls are all spoken for, the next call waits for the reset. One
 * instance per key per process (see `LimiterRegistry`), shared by every client of that key.
 */
export class RateLimiter {
  private limit?: number;
  private remaining?: number;
  private windowReset?: number; // server unix seconds of the current window's end
  private inFlight = 0;
  private blockedUntil = 0; // local ms, from a 429's Retry-After
  private readonly skew = new ClockSkew();

  /** Local time (ms) at which the current window ends, or undefined when unknown. */
  private resetAtLocal(): number | undefined {
    if (this.windowReset === undefined) return undefined;
    const margin = this.skew.known ? RESET_MARGIN_MS : UNKNOWN_SKEW_MARGIN_MS;
    return this.windowReset * 1000 - this.skew.conservative + margin;
  }

  /** How long the next call must wait now, and why; 0 when it may go. */
  private delayFor(now: number): { ms: number; reason: WaitReason } {
    if (now < this.blockedUntil) return { ms: this.blockedUntil - now, reason: 'retry_after' };
    const resetAt = this.resetAtLocal();
    if (resetAt !== undefined && now >= resetAt) {
      // The window has rolled over: the server will answer with fresh counts.
      this.windowReset = undefined;
      this.remaining = this.limit;
    }
    const free = this.remaining === undefined ? Infinity : this.remaining - this.inFlight;
    if (free > 0) return { ms: 0, reason: 'pacing' };
    if (resetAt !== undefined) return { ms: Math.max(1, resetAt - now), reason: 'pacing' };
    // Spoken for, window end unknown (calls in flight will tell): wait briefly for them.
    return { ms: 50, reason: 'pacing' };
  }

  /** Waits until a call may go, then counts it in flight. Call `settle` when it ends. */
  async acquire(runtime: Runtime, budget: WaitBudget, signal?: AbortSignal, onWait?: (ms: number, reason: WaitReason) => void): Promise<void> {
    for (;;) {
      const { ms, reason } = this.delayFor(runtime.now());
      if (ms <= 0) break;
      budget.reserve(ms, reason === 'retry_after' ? 'Honouring the service’s Retry-After' : 'Waiting for the rate window to reset');
      onWait?.(ms, reason);
      await runtime.sleep(ms, signal);
    }
    this.inFlight += 1;
  }

  /** Ends an in-flight call and learns from its headers, if an answer came back. */
  settle(headers: RateLimitHeaders | undefined, sentAt: number, receivedAt: number): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (!headers) return;
    if (headers.date !== undefined) this.skew.observe(headers.date, sentAt, receivedAt);
    if (headers.limit !== undefined) this.limit = headers.limit;
    if (headers.reset === undefined || headers.remaining === undefined) return;
    if (this.windowReset === undefined || headers.reset > this.windowReset) {
      this.windowReset = headers.reset;
      this.remaining = headers.remaining;
    } else if (headers.reset === this.windowReset) {
      // Answers of one window can arrive out of order: the lowest count is the newest.
      this.remaining = Math.min(this.remaining ?? headers.remaining, headers.remaining);
    }
  }

  /** After a 429: nobody in this process sends on this key until Retry-After has passed. */
  block(retryAfterSeconds: number, now: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, now + retryAfterSeconds * 1000);
  }
}

/** One limiter per key per process. Keys are identified by a hash, never held in clear. */
export class LimiterRegistry {
  private readonly limiters = new Map<string, RateLimiter>();

  for(id: string): RateLimiter {
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiter();
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

/** The process-wide registry every client uses unless given its own (tests and benches do). */
export const processLimiters = new LimiterRegistry();
