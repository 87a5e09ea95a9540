/**
 * When to poll a job next: a pure function, so the schedule can be checked on a virtual clock.
 *
 * - Retry-After from `GET /jobs/{id}`, when the service sends one, decides alone.
 * - When the job's own counters move (`processed` of `total`), their rate forecasts the end: the delay
 *   doubles from the first one (a logarithmic number of polls) but never runs past the forecast end,
 *   plus a small margin. On a steady job the poll after the end comes within ~5% of its duration.
 * - Without a forecast (no movement yet, or a stall) the delay doubles too, capped at a fraction of
 *   the time already waited: the job has lasted at least that long, so the lag stays a fraction of it.
 */
export interface PollPlan {
  /** The first delay, and the floor of every delay the schedule chooses. */
  minDelayMs: number;
  /** Cap on delays chosen without a forecast. */
  maxDelayMs: number;
  /** Without a forecast, no delay exceeds this share of the time already waited. */
  waitedFraction: number;
}

export const DEFAULT_POLL_PLAN: PollPlan = { minDelayMs: 1000, maxDelayMs: 20_000, waitedFraction: 0.2 };

/** How far past the forecast end to poll: a share of the forecast, plus a share of the first delay. */
const FORECAST_MARGIN = 0.05;

export interface PollMoment {
  /** Polls made so far (1 after the first). */
  polls: number;
  /** ms since the wait began. */
  waitedMs: number;
  /** ms the job's counters say are left, when they moved between the last two polls. */
  forecastMs?: number;
  /** ms the service asked us to wait (Retry-After), when it did. */
  retryAfterMs?: number;
  /** Uniform in [0, 1): jitter, so that many waiters do not poll in step. */
  random: number;
}

export function nextPollDelay(moment: PollMoment, plan: PollPlan): number {
  if (moment.retryAfterMs !== undefined && moment.retryAfterMs > 0) return moment.retryAfterMs;
  const growth = plan.minDelayMs * 2 ** Math.max(0, moment.polls - 1) * (0.75 + 0.5 * moment.random);
  if (moment.forecastMs !== undefined) {
    const toForecastEnd = moment.forecastMs * (1 + FORECAST_MARGIN) + plan.minDelayMs * FORECAST_MARGIN;
    return Math.max(plan.minDelayMs * FORECAST_MARGIN, Math.min(growth, toForecastEnd));
  }
  const waitedCap = Math.max(plan.minDelayMs, plan.waitedFraction * moment.waitedMs);
  return Math.min(growth, plan.maxDelayMs, waitedCap);
}

/** One poll's answer: when it came, and the job's counters. */
export interface JobReading {
  at: number;
  processed: number;
  total: number;
}

/** ms left at the rate the counters moved between two readings; undefined when they did not move. */
export function forecastRemainingMs(previous: JobReading | undefined, latest: JobReading): number | undefined {
  if (!previous || ![previous.processed, latest.processed, latest.total].every((n) => typeof n === 'number')) return undefined;
  const moved = latest.processed - previous.processed;
  const span = latest.at - previous.at;
  const left = latest.total - latest.processed;
  if (!(moved > 0) || !(span > 0) || !(left >= 0) || !Number.isFinite(left)) return undefined;
  return (left * span) / moved;
}
