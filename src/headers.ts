/** Parsing of the headers of spec §8. Missing or garbled values are `undefined`, never NaN. */
export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  /** Unix seconds at which the window resets (server clock). */
  reset?: number;
  /** Seconds to wait, on 429. */
  retryAfter?: number;
  /** Server time in ms from the `Date` header (1 s resolution). */
  date?: number;
}

/**
 * Digits, with white space around them allowed (what `/^\s*\d+\s*$/` accepts; `trim` drops the same
 * characters as `\s`). A loop, not a regular expression: three of these run on every answer.
 */
function nonNegativeInt(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const digits = value.trim();
  if (digits.length === 0) return undefined;
  let n = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = digits.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    n = n * 10 + digit;
  }
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Retry-After in seconds (spec §8), decimals included: "1.5" is 1.5 s (it is not a date). An HTTP-date
 * form (it always holds a day or month name) is read against `serverNow`, the server's own clock from
 * its `Date` header when it sent one, so a skewed local clock neither shortens nor lengthens the wait.
 */
export function parseRetryAfter(value: string | undefined, serverNow: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const seconds = Number(text);
    return Number.isFinite(seconds) ? seconds : undefined;
  }
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - serverNow) / 1000);
}

function dateMs(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Reads the rate-limit headers of one sender's answers, remembering the last `Date` it parsed: answers
 * within one second carry the same text, and `Date.parse` is the costliest step of reading them.
 */
export class RateLimitHeaderReader {
  private lastDate: { text: string; ms: number | undefined } | undefined;

  read(headers: Record<string, string | undefined>, now: number): RateLimitHeaders {
    const text = headers['date'];
    if (text !== undefined && this.lastDate?.text !== text) this.lastDate = { text, ms: dateMs(text) };
    const date = text === undefined ? undefined : this.lastDate!.ms;
    return {
      limit: nonNegativeInt(headers['x-ratelimit-limit']),
      remaining: nonNegativeInt(headers['x-ratelimit-remaining']),
      reset: nonNegativeInt(headers['x-ratelimit-reset']),
      retryAfter: parseRetryAfter(headers['retry-after'], date ?? now),
      date,
    };
  }
}

/**
 * How long a 429 asks us to wait, in seconds: its Retry-After; without one, until the window's
 * X-RateLimit-Reset (read against the server's `Date`, else the local clock); else undefined.
 */
export function rateLimitedWaitSeconds(headers: RateLimitHeaders, now: number): number | undefined {
  if (headers.retryAfter !== undefined) return headers.retryAfter;
  if (headers.reset === undefined) return undefined;
  return Math.max(0, headers.reset - (headers.date ?? now) / 1000);
}
