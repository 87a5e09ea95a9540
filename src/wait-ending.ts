import { ApiError } from './errors.ts';
import { CLIENT_WORDS } from './surface-words.ts';
import type { SurfaceWords } from './surface-words.ts';
import type { ImportWait, Job } from './types.ts';

/**
 * How long both surfaces wait for import jobs unless told otherwise (the action's `wait-timeout`, the
 * node's Timeout fields): one figure, so the same import ends the same way on either.
 */
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 600;

/** The one ending for jobs still running when the wait stopped: they keep running on the service. */
export function stillRunning(jobIds: readonly string[], words: SurfaceWords, timedOut: boolean): string {
  const them = jobIds.length === 1 ? 'it' : 'they';
  return `${them} keep${jobIds.length === 1 ? 's' : ''} running on the service: ${timedOut ? `raise ${words.timeoutSetting}, or ` : ''}${words.readAgain(jobIds)}`;
}

function progressOf(job?: Job): string {
  return job && typeof job.processed === 'number' && typeof job.total === 'number' ? ` (${job.processed} of ${job.total} rows processed)` : '';
}

/**
 * Why waiting for a job ended without its finish, as an error saying how to read it again in the
 * surface's own words, or undefined when it finished. The job keeps running on the service in every
 * case: a timeout (`wait_timeout`), a cancelled wait (`aborted`), or a poll that failed (its own code).
 */
export function waitEndedError(jobId: string, result: ImportWait['result'], timeoutMs?: number, words: SurfaceWords = CLIENT_WORDS): ApiError | undefined {
  const progress = progressOf(result.job);
  const resume = (timedOut: boolean) => stillRunning([jobId], words, timedOut);
  switch (result.status) {
    case 'completed':
      return undefined;
    case 'timeout':
      return new ApiError({
        status: 0,
        type: 'wait_timeout',
        code: 'wait_timeout',
        message: `Job ${jobId} did not finish${timeoutMs === undefined ? ' in time' : ` within ${Math.round(timeoutMs / 1000)} s`}${progress}; ${resume(true)}.`,
      });
    case 'aborted':
      return new ApiError({ status: 0, type: 'aborted', code: 'aborted', message: `Waiting for job ${jobId} was cancelled${progress}; ${resume(false)}.` });
    case 'poll_failed':
      return new ApiError({ ...result.error.toJSON(), outcomeUnknown: false, message: `Reading job ${jobId} failed${progress} (${result.error.message}); ${resume(false)}.` });
  }
}
