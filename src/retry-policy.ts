import type { ApiError } from './errors.ts';

/**
 * What to do after a failed attempt: by status for 429 and 5xx (with or without the error envelope), by
 * `code` (spec §7) for the rest.
 * - 429 rate_limit_exceeded: not processed; wait Retry-After (else until X-RateLimit-Reset), but never
 *   less than the 429 floor (`rateLimitFloorSeconds`), then retry (outside the retry count).
 * - any 5xx (500 internal_error, 502, 503, 504; with or without the error envelope): ONE rule — retried
 *   once, same Idempotency-Key, after the backoff or the answer's Retry-After if that is longer (up to
 *   MAX_SERVER_RETRY_AFTER_S; a longer one stops at once). A write still failing is `unknown`.
 * - 409 idempotency_request_in_progress: retry with the same key after a backoff.
 * - transport errors without an answer: retry reads always; writes only when they carry an
 *   Idempotency-Key.
 * - everything else (401/402/403/404/405/409 reused/413/422/400): never retry.
 */
export type RetryDecision =
  | { kind: 'rate_limit'; waitSeconds: number; /** The answer asked for less than the floor: the next floor doubles. */ belowFloor?: true }
  | { kind: 'backoff'; atLeastMs?: number }
  | { kind: 'stop' };

/** The longest Retry-After a 5xx may ask for before its one retry; beyond it, the call ends at once. */
export const MAX_SERVER_RETRY_AFTER_S = 60;

/** The least wait after a 429, whatever the answer asked (0, garbage, a reset already past). */
export const RATE_LIMIT_FLOOR_S = 1;
/** The floor doubles on each further 429 of the same call that again asks for less, up to this. */
export const MAX_RATE_LIMIT_FLOOR_S = 32;

/**
 * The floor under the wait after a 429, when `short` earlier 429s of the same call asked for less than
 * their floor: 1 s, 2 s, 4 s … 32 s. No answer can make a call spin (a 429 asking for 0 s used to retry
 * 101 times in 50 ms). An answer asking for at least the floor is waited as asked, and does not raise it.
 */
export function rateLimitFloorSeconds(short: number): number {
  return Math.min(MAX_RATE_LIMIT_FLOOR_S, RATE_LIMIT_FLOOR_S * 2 ** Math.max(0, short));
}

function rateLimitWait(error: ApiError, state: RetryState): RetryDecision {
  const asked = error.retryAfter !== undefined && Number.isFinite(error.retryAfter) ? error.retryAfter : 0;
  const floor = rateLimitFloorSeconds(state.shortRateLimits ?? 0);
  return asked >= floor ? { kind: 'rate_limit', waitSeconds: asked } : { kind: 'rate_limit', waitSeconds: floor, belowFloor: true };
}

export interface RetryState {
  /** Transient retries made so far for this request. */
  retries: number;
  /** 5xx answers seen so far for this request. */
  serverErrors: number;
  /** 429s seen so far for this request (they do not count as retries). */
  rateLimited: number;
  /** Those of them that asked for less than the 429 floor (`rateLimitFloorSeconds`). */
  shortRateLimits?: number;
}

export interface RetryOptions {
  /** Transient retries per request (5xx, 409 in progress, network). Default 4. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 8000 };

export function decideRetry(error: ApiError, state: RetryState, options: RetryOptions, idempotent: boolean): RetryDecision {
  if (error.status === 429) return rateLimitWait(error, state);
  if (error.status >= 500 || error.code === 'internal_error') {
    if (state.serverErrors > 1 || state.retries >= options.maxRetries || !idempotent) return { kind: 'stop' };
    if (error.retryAfter === undefined) return { kind: 'backoff' };
    return error.retryAfter <= MAX_SERVER_RETRY_AFTER_S ? { kind: 'backoff', atLeastMs: error.retryAfter * 1000 } : { kind: 'stop' };
  }
  switch (error.code) {
    case 'rate_limit_exceeded': // the code under another status (a proxy's rewrite): still a rate limit
      return rateLimitWait(error, state);
    case 'idempotency_request_in_progress':
      return state.retries < options.maxRetries ? { kind: 'backoff' } : { kind: 'stop' };
    case 'transport_error':
      // A 4xx without the error envelope (e.g. a proxy's HTML page) is still a refusal: not retried.
      if (error.status >= 400) return { kind: 'stop' };
      return idempotent && state.retries < options.maxRetries ? { kind: 'backoff' } : { kind: 'stop' };
    default:
      return { kind: 'stop' };
  }
}

/** Exponential backoff with "equal jitter": half fixed, half random, so retries spread but never collapse to 0. */
export function backoffDelay(retry: number, options: RetryOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * A token bucket over retries (AWS smithy's standard mode): each retry spends tokens, each success
 * refunds one, so a prolonged outage stops retrying instead of turning into a retry storm.
 */
export class RetryBudget {
  private tokens: number;
  private readonly capacity: number;
  constructor(capacity = 500) {
    this.capacity = capacity;
    this.tokens = capacity;
  }

  /** Spends the cost of a retry; false when the budget is exhausted. */
  trySpend(transport: boolean): boolean {
    const cost = transport ? 10 : 5;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }

  refund(): void {
    this.tokens = Math.min(this.capacity, this.tokens + 1);
  }
}
