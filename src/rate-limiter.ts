import { ClockSkew } from './clock-skew.ts';
import { ApiError } from './errors.ts';
import type { RateLimitHeaders } from './headers.ts';
import type { Runtime } from './runtime.ts';
import { shareSpacing, WindowShare } from './window-share.ts';

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
      // The client's own limit, not an answer of the service: no HTTP status, though the window's 429s led here.
      throw new ApiError({
        status: 0,
        type: 'rate_limit_error',
        code: 'rate_limit_wait_exceeded',
        message: `${why} would need a wait of ${Math.ceil(ms / 1000)} s, beyond the allowed maximum wait of ${Math.round(this.maxWaitMs / 1000)} s (${Math.round(this.waitedMs / 1000)} s already spent).`,
      });
    }
    this.waitedMs += ms;
  }
}

/**
 * Why a call waits, so a log can say it truthfully: a 429's Retry-After; the window's calls used up
 * (when shared, counting what the others are expected to spend); what is left spoken for by calls in
 * flight whose answers will tell the new count; or, with others seen on the key, this process spacing
 * its calls to spend its share of what is left evenly until the reset (not "no calls left": a shared
 * window can be far from spent).
 */
export type WaitReason = 'retry_after' | 'window_spent' | 'in_flight' | 'share_spacing';

const WAIT_WHY: Record<WaitReason, string> = {
  retry_after: 'Honouring the service’s Retry-After',
  window_spent: 'Waiting for the rate window to reset',
  in_flight: 'Waiting for the answers of calls in flight',
  share_spacing: 'Spacing calls to this process’s share of the rate window',
};

/** Bounds of the multiplicative back-off on 429s (a factor on the shared spacing). */
const MAX_BACKOFF = 8;
const BACKOFF_RECOVERY = 0.5;

/**
 * Paces one API key from the service's own headers (spec §8). One instance per key per process (see
 * `LimiterRegistry`), shared by every client of that key. Other processes on the key (n8n queue-mode
 * workers, matrix jobs) share no memory with it: what they spend shows in `X-RateLimit-Remaining`.
 *
 * - Alone on the key (nobody else's calls seen, this window or the last): calls go at once until the
 *   window's remaining calls are spoken for, then the next waits for the reset. No spacing, no jitter.
 * - Shared (`WindowShare` saw others spend the window): each call is spaced so this process spends
 *   its fair part of what is left evenly until the reset (`shareSpacing`), and the first call after a
 *   reset waits a random part of one fair slot so the processes do not all wake at the same instant.
 * - A 429 blocks the key until Retry-After has passed and doubles the spacing (multiplicative
 *   decrease); each window without one takes half a step back (additive increase) — AIMD.
 * - Cold (no answer yet on this key in this process): one call goes first and the others wait for its
 *   answer, which tells the window; then they go as above. A call that got no answer hands the
 *   first turn to the next.
 * See docs/scale.md.
 */
export class RateLimiter {
  private limit?: number;
  private remaining?: number;
  private windowReset?: number; // server unix seconds of the current window's end
  private inFlight = 0;
  private blockedUntil = 0; // local ms, from a 429's Retry-After
  private lastSentAt?: number; // local ms of our latest call
  private lastJitter = 0.5; // its random draw, so a recomputed spacing keeps the same draw
  private backoff = 1;
  private rejectedThisWindow = false;
  private refusalsInRow = 0;
  private observedAt?: number; // local ms of the answer that gave `remaining`
  private answered = false; // any answer seen: until then one call goes alone and the others wait for it
  private answerWaiters: (() => void)[] = [];
  private readonly skew = new ClockSkew();
  private readonly share = new WindowShare();

  /** Processes' worth of demand on this key, as this process estimates it (1: alone). */
  get sharers(): number {
    return this.share.sharers;
  }

  /** Local time (ms) at which the current window ends, or undefined when unknown. */
  private resetAtLocal(): number | undefined {
    if (this.windowReset === undefined) return undefined;
    const margin = this.skew.known ? RESET_MARGIN_MS : UNKNOWN_SKEW_MARGIN_MS;
    return this.windowReset * 1000 - this.skew.conservative + margin;
  }

  /** One fair slot of a whole window: where, after a reset, this process's first call may fall. */
  private slotMs(fallbackWindowMs: number): number {
    const windowMs = this.share.windowMs ?? fallbackWindowMs;
    return this.limit ? (windowMs * this.sharers) / this.limit : 0;
  }

  /**
   * The window's remaining calls now. Alone, the last count is exact until we send again. Shared, it
   * grows stale: the others have kept spending since, at their part of the pace that spends the rest
   * by the reset (the fluid model of docs/scale.md).
   */
  private expectedRemaining(now: number, resetAt: number | undefined): number | undefined {
    const n = this.sharers;
    if (this.remaining === undefined || n <= 1 || resetAt === undefined || this.observedAt === undefined) return this.remaining;
    const observedToReset = resetAt - this.observedAt;
    if (observedToReset <= 0) return this.remaining;
    const othersSpent = ((n - 1) / n) * Math.min(1, Math.max(0, now - this.observedAt) / observedToReset);
    return this.remaining * (1 - othersSpent);
  }

  private rollOver(): void {
    this.windowReset = undefined;
    this.observedAt = undefined;
    this.remaining = this.limit;
    this.backoff = this.rejectedThisWindow ? this.backoff : Math.max(1, this.backoff - BACKOFF_RECOVERY);
    this.rejectedThisWindow = false;
  }

  /** How long the next call must wait now, and why; 0 when it may go. */
  private delayFor(now: number, random: () => number): { ms: number; reason: WaitReason } {
    const resetAt = this.resetAtLocal();
    if (now < this.blockedUntil) {
      // Everyone refused in one window is told the same instant: when others were seen, or a refusal
      // followed a refusal, each comes back at a random point of its first fair slot after it instead
      // of all at once. A first refusal of a process that has seen nobody is waited exactly.
      const herd = this.sharers > 1 || this.refusalsInRow > 1;
      const jitter = herd ? random() * this.slotMs(resetAt === undefined ? this.blockedUntil - now : resetAt - now) : 0;
      return { ms: this.blockedUntil - now + jitter, reason: 'retry_after' };
    }
    // The window has rolled over: the server will answer with fresh counts.
    if (resetAt !== undefined && now >= resetAt) this.rollOver();
    const shared = this.sharers > 1;
    const remaining = this.expectedRemaining(now, resetAt);
    const free = remaining === undefined ? Infinity : remaining - this.inFlight;
    // Shared, less than one call left is a chance of one: the processes' expected calls add up to it.
    if (free <= 0 || (shared && free < 1 && random() >= free)) {
      if (resetAt === undefined) return { ms: 50, reason: 'in_flight' }; // spoken for, end unknown: calls in flight will tell
      const startJitter = shared ? random() * this.slotMs(resetAt - now) : 0;
      return { ms: Math.max(1, resetAt - now + startJitter), reason: 'window_spent' };
    }
    const nextAt = this.nextAt(resetAt);
    if (now < nextAt) return { ms: nextAt - now, reason: 'share_spacing' };
    return { ms: 0, reason: 'share_spacing' };
  }

  /**
   * When the next call may go: at once when alone; when shared, one fair spacing after our latest
   * call, recomputed from the freshest count (an answer that came back since can only lengthen it).
   * A spacing that ends past the reset means: open the next window at a random point of its first slot.
   */
  private nextAt(resetAt: number | undefined): number {
    if (this.sharers <= 1 || this.lastSentAt === undefined) return 0;
    const sent = this.lastSentAt;
    if (resetAt === undefined) return sent + this.slotMs(0) * (0.5 + this.lastJitter); // new window, no count yet
    const remaining = this.expectedRemaining(sent, resetAt);
    if (remaining === undefined) return 0;
    const spacing = shareSpacing({ sharers: this.sharers, remaining: remaining - this.inFlight, msToReset: resetAt - sent, backoff: this.backoff, random: this.lastJitter });
    return sent + spacing < resetAt ? sent + spacing : resetAt + this.lastJitter * this.slotMs(resetAt - sent);
  }

  /**
   * Resolves at the next `settle` (or rejects when `signal` aborts): a cold limiter's calls wait here
   * for the first call's answer instead of polling a clock.
   */
  private nextSettle(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.answerWaiters = this.answerWaiters.filter((w) => w !== wake);
        reject(new ApiError({ status: 0, type: 'aborted', code: 'aborted', message: 'The operation was cancelled.' }));
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      if (signal?.aborted) return onAbort();
      this.answerWaiters.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Counts a call in flight once it may go. Returns nothing when it may go at once, the common case
   * (no promise, no microtask turn); otherwise the wait, which rejects when `signal` aborts. Call
   * `settle` when the call ends. A wait that would end past `deadline` (a job wait's) is not begun: it
   * rejects with `wait_timeout`.
   */
  acquire(runtime: Runtime, budget: WaitBudget, signal?: AbortSignal, onWait?: (ms: number, reason: WaitReason) => void, deadline?: number): Promise<void> | undefined {
    if (!this.answered && this.inFlight > 0) return this.waitTurn(runtime, budget, signal, onWait, deadline);
    const now = runtime.now();
    if (!this.goesAtOnceAlone(now)) {
      const delay = this.delayFor(now, runtime.random);
      if (delay.ms > 0) return this.waitTurn(runtime, budget, signal, onWait, deadline, delay);
    }
    this.enter(runtime);
    return undefined;
  }

  /**
   * True when `delayFor` would answer 0 without drawing a random number, found without its shared-window
   * arithmetic: alone on the key, not blocked by a 429, inside the known window (a window past its reset
   * goes to `delayFor`, which rolls it over), with calls to spare. Every call of a lone process asks this.
   */
  private goesAtOnceAlone(now: number): boolean {
    if (now < this.blockedUntil || this.share.sharers > 1) return false;
    if (this.windowReset !== undefined && now >= this.resetAtLocal()!) return false;
    return this.remaining === undefined || this.remaining - this.inFlight > 0;
  }

  /** The wait of `acquire`; `first` is the delay it already drew (drawn again, it would take another random). */
  private async waitTurn(runtime: Runtime, budget: WaitBudget, signal: AbortSignal | undefined, onWait: ((ms: number, reason: WaitReason) => void) | undefined, deadline: number | undefined, first?: { ms: number; reason: WaitReason }): Promise<void> {
    // A cold start: nothing is known of the window until the service answers once, so the first call
    // goes alone and the rest wait for its answer (20 parallel calls used to meet 10 × 429 at once).
    while (!this.answered && this.inFlight > 0) await this.nextSettle(signal);
    for (let drawn = first; ; drawn = undefined) {
      const { ms, reason } = drawn ?? this.delayFor(runtime.now(), runtime.random);
      if (ms <= 0) break;
      if (deadline !== undefined && runtime.now() + ms >= deadline) {
        throw new ApiError({ status: 0, type: 'wait_timeout', code: 'wait_timeout', message: `Waiting ${Math.ceil(ms / 1000)} s for the rate window would pass the wait's deadline.` });
      }
      budget.reserve(ms, WAIT_WHY[reason]);
      onWait?.(ms, reason);
      await runtime.sleep(ms, signal);
    }
    this.enter(runtime);
  }

  private enter(runtime: Runtime): void {
    this.inFlight += 1;
    this.lastSentAt = runtime.now();
    this.lastJitter = runtime.random();
  }

  /** Ends an in-flight call and learns from its headers, if an answer came back. */
  settle(headers: RateLimitHeaders | undefined, sentAt: number, receivedAt: number): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (headers) this.answered = true;
    if (this.answerWaiters.length > 0) {
      const waiters = this.answerWaiters;
      this.answerWaiters = [];
      for (const wake of waiters) wake();
    }
    if (!headers) {
      this.share.uncounted();
      return;
    }
    if (headers.date !== undefined) this.skew.observe(headers.date, sentAt, receivedAt);
    if (headers.limit !== undefined) this.limit = headers.limit;
    if (headers.reset === undefined || headers.remaining === undefined) return;
    this.refusalsInRow = 0;
    if (this.limit !== undefined) this.share.observe({ limit: this.limit, remaining: headers.remaining, reset: headers.reset, unanswered: this.inFlight });
    if (this.windowReset === undefined || headers.reset > this.windowReset) {
      this.windowReset = headers.reset;
      this.remaining = headers.remaining;
      this.observedAt = receivedAt;
    } else if (headers.reset === this.windowReset && headers.remaining <= (this.remaining ?? Infinity)) {
      // Answers of one window can arrive out of order: the lowest count is the newest.
      this.remaining = headers.remaining;
      this.observedAt = receivedAt;
    }
  }

  /** After a 429: nobody in this process sends on this key until Retry-After has passed. */
  block(retryAfterSeconds: number, now: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, now + retryAfterSeconds * 1000);
    this.backoff = Math.min(MAX_BACKOFF, this.backoff * 2);
    this.rejectedThisWindow = true;
    this.refusalsInRow += 1;
    this.share.uncounted();
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
