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

function nonNegativeInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Retry-After is seconds here (spec §8); an HTTP-date form is accepted too, relative to `now`. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  const seconds = nonNegativeInt(value);
  if (seconds !== undefined) return seconds;
  if (!value) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export function parseRateLimitHeaders(headers: Record<string, string | undefined>, now: number): RateLimitHeaders {
  const date = headers['date'] ? Date.parse(headers['date']) : NaN;
  return {
    limit: nonNegativeInt(headers['x-ratelimit-limit']),
    remaining: nonNegativeInt(headers['x-ratelimit-remaining']),
    reset: nonNegativeInt(headers['x-ratelimit-reset']),
    retryAfter: parseRetryAfter(headers['retry-after'], now),
    date: Number.isNaN(date) ? undefined : date,
  };
}
