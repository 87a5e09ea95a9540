import { ApiError } from './errors.ts';
import type { ImportWait, Job } from './types.ts';

function progressOf(job?: Job): string {
  return job && typeof job.processed === 'number' && typeof job.total === 'number' ? ` (${job.processed} of ${job.total} rows processed)` : '';
}

/**
 * Why waiting for a job ended without its finish, as an error naming the job id to resume with
 * (`jobs.wait`), or undefined when it finished. The job keeps running on the service in every case:
 * a timeout (`wait_timeout`), a cancelled wait (`aborted`), or a poll that failed (its own code).
 */
export function waitEndedError(jobId: string, result: ImportWait['result'], timeoutMs?: number): ApiError | undefined {
  const progress = progressOf(result.job);
  const resume = 'it keeps running on the service; resume with jobs.wait';
  switch (result.status) {
    case 'completed':
      return undefined;
    case 'timeout':
      return new ApiError({
        status: 0,
        type: 'wait_timeout',
        code: 'wait_timeout',
        message: `Job ${jobId} did not finish${timeoutMs === undefined ? ' in time' : ` within ${Math.round(timeoutMs / 1000)} s`}${progress}; ${resume}.`,
      });
    case 'aborted':
      return new ApiError({ status: 0, type: 'aborted', code: 'aborted', message: `Waiting for job ${jobId} was cancelled${progress}; ${resume}.` });
    case 'poll_failed':
      return new ApiError({ ...result.error.toJSON(), outcomeUnknown: false, message: `Reading job ${jobId} failed${progress} (${result.error.message}); ${resume}.` });
  }
}
