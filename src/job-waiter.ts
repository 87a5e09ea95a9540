import { ApiError, inputError } from './errors.ts';
import type { Runtime } from './runtime.ts';
import type { Job, WaitResult } from './types.ts';

export interface WaitOptions {
  /** Required: how long to wait in all, in ms. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called with the job whenever `processed` or `failed` changed since the last poll. */
  onProgress?: (job: Job) => void;
  minDelayMs?: number;
  maxDelayMs?: number;
}

/** Finished means `completed_at` is set (spec §2); status names other than `queued` are not shown. */
export function isJobFinished(job: Job): boolean {
  return typeof job.completed_at === 'string' && job.completed_at.length > 0;
}

/**
 * Polls a job like AWS waiters: 1 s first, ×2 with jitter up to a cap, never past the deadline.
 * Timeout and abort are results, not exceptions; service errors are thrown.
 */
export async function waitForJob(getJob: () => Promise<Job>, runtime: Runtime, options: WaitOptions): Promise<WaitResult> {
  if (!options || !Number.isFinite(options.timeoutMs) || options.timeoutMs < 0) {
    throw inputError('Waiting for a job needs a timeout in ms (timeoutMs).', 'timeoutMs');
  }
  const minDelay = options.minDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 20000;
  const deadline = runtime.now() + options.timeoutMs;
  let delay = minDelay;
  let last: Job | undefined;
  for (;;) {
    if (options.signal?.aborted) return { status: 'aborted', job: last };
    // Settled, not try/catch: a service error propagates as the layer's own ApiError (the node converts
    // it at its boundary); only a cancelled request becomes a result here.
    const poll = await getJob().then((job) => ({ job }), (error: unknown) => ({ error }));
    if ('error' in poll) {
      if (poll.error instanceof ApiError && poll.error.code === 'aborted') return { status: 'aborted', job: last };
      throw poll.error;
    }
    const { job } = poll;
    if (options.onProgress && (!last || last.processed !== job.processed || last.failed !== job.failed)) options.onProgress(job);
    last = job;
    if (isJobFinished(job)) return { status: 'completed', job };
    const left = deadline - runtime.now();
    if (left <= 0) return { status: 'timeout', job };
    const jittered = delay * (0.75 + 0.5 * runtime.random());
    try {
      await runtime.sleep(Math.min(jittered, left), options.signal);
    } catch {
      return { status: 'aborted', job };
    }
    delay = Math.min(maxDelay, delay * 2);
  }
}
