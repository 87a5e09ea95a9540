import { ApiError, inputError } from './errors.ts';
import { DEFAULT_POLL_PLAN, forecastRemainingMs, nextPollDelay } from './poll-schedule.ts';
import type { JobReading } from './poll-schedule.ts';
import type { Runtime } from './runtime.ts';
import type { Job, WaitResult } from './types.ts';

export interface WaitOptions {
  /** Required: how long to wait in all, in ms. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called with the job whenever `processed` or `failed` changed since the last poll. */
  onProgress?: (job: Job) => void;
  /** First delay between polls (default 1 s). */
  minDelayMs?: number;
  /** Cap on delays while the job's counters give no forecast of its end (default 20 s). */
  maxDelayMs?: number;
}

/** One answer of `GET /jobs/{id}`: the job, and the service's Retry-After (seconds) if it sent one. */
export interface JobPoll {
  job: Job;
  retryAfterSeconds?: number;
}

/** Finished means `completed_at` is set (spec §2); status names other than `queued` are not shown. */
export function isJobFinished(job: Job): boolean {
  return typeof job.completed_at === 'string' && job.completed_at.length > 0;
}

/**
 * Polls a job on the schedule of poll-schedule.ts, never past the deadline: each poll is given it
 * (`pollJob(deadline)`), so a poll that hangs is cut off there (at the least MIN_ATTEMPT_MS after it
 * began) instead of running on to the transport's own timeout.
 * Timeout and abort are results, not exceptions; service errors are thrown.
 */
export async function waitForJob(pollJob: (deadline: number) => Promise<JobPoll>, runtime: Runtime, options: WaitOptions): Promise<WaitResult> {
  if (!options || !Number.isFinite(options.timeoutMs) || options.timeoutMs < 0) {
    throw inputError('Waiting for a job needs a timeout in ms (timeoutMs).', 'timeoutMs');
  }
  const plan = { ...DEFAULT_POLL_PLAN, minDelayMs: options.minDelayMs ?? DEFAULT_POLL_PLAN.minDelayMs, maxDelayMs: options.maxDelayMs ?? DEFAULT_POLL_PLAN.maxDelayMs };
  const started = runtime.now();
  const deadline = started + options.timeoutMs;
  let polls = 0;
  let reading: JobReading | undefined;
  let last: Job | undefined;
  for (;;) {
    if (options.signal?.aborted) return { status: 'aborted', job: last };
    // Settled, not try/catch: a service error propagates as the layer's own ApiError (the node converts
    // it at its boundary); only a cancelled request becomes a result here.
    const answer = await pollJob(deadline).then((poll) => ({ poll }), (error: unknown) => ({ error }));
    if ('error' in answer) {
      if (answer.error instanceof ApiError && answer.error.code === 'aborted') return { status: 'aborted', job: last };
      if (answer.error instanceof ApiError && answer.error.code === 'wait_timeout') return { status: 'timeout', job: last };
      throw answer.error;
    }
    const { job, retryAfterSeconds } = answer.poll;
    polls += 1;
    if (options.onProgress && (!last || last.processed !== job.processed || last.failed !== job.failed)) options.onProgress(job);
    last = job;
    if (isJobFinished(job)) return { status: 'completed', job };
    const now = runtime.now();
    const left = deadline - now;
    if (left <= 0) return { status: 'timeout', job };
    const latest: JobReading = { at: now, processed: job.processed, total: job.total };
    const forecastMs = forecastRemainingMs(reading, latest);
    reading = latest;
    const retryAfterMs = retryAfterSeconds === undefined ? undefined : retryAfterSeconds * 1000;
    const delay = nextPollDelay({ polls, waitedMs: now - started, forecastMs, retryAfterMs, random: runtime.random() }, plan);
    try {
      await runtime.sleep(Math.min(delay, left), options.signal);
    } catch {
      return { status: 'aborted', job };
    }
  }
}
