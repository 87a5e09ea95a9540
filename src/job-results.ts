/**
 * An import job read by its id (the node's Job → Get / Wait, the action's `mode: import-status`): how it
 * stands, what it imported, and each row it refused, counted and worded once for both surfaces.
 */
import type { ApiError } from './errors.ts';
import { rowErrorAsApiError } from './import-results.ts';
import { isJobFinished } from './job-waiter.ts';
import { readJobRowError } from './job-row-error.ts';
import { CLIENT_WORDS } from './surface-words.ts';
import type { SurfaceWords } from './surface-words.ts';
import type { Job } from './types.ts';
import { stillRunning } from './wait-ending.ts';

/** Finished; still running when read without waiting; still running when a wait ended. */
export type ImportJobStatus = 'completed' | 'queued' | 'unfinished';

export interface JobRowFailure {
  /**
   * The row's index as the service gave it: its zero-based position in the `contacts` of the import call
   * that made the job. Absent when the element carries none. A surface with the file maps it to a line.
   */
  element?: number;
  error: ApiError;
}

export interface JobResult {
  jobId: string;
  status: ImportJobStatus;
  total: number;
  /** Rows processed without an error: `processed − failed`, never below 0. */
  imported: number;
  failed: number;
  /** Rows not processed yet. */
  pending: number;
  rowErrors: JobRowFailure[];
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** One job as read: `waited` when the read waited for it (an unfinished one is then `unfinished`). */
export function jobResult(job: Job, waited: boolean): JobResult {
  const total = count(job.total);
  const processed = count(job.processed);
  const failed = count(job.failed);
  const rowErrors = (Array.isArray(job.errors) ? job.errors : []).map((raw): JobRowFailure => {
    const fields = readJobRowError(raw);
    return { ...(fields.index !== undefined ? { element: fields.index } : {}), error: rowErrorAsApiError({ ...fields, error: raw }) };
  });
  return {
    jobId: job.id,
    status: isJobFinished(job) ? 'completed' : waited ? 'unfinished' : 'queued',
    total,
    imported: Math.max(0, processed - failed),
    failed,
    pending: Math.max(0, total - processed),
    rowErrors,
  };
}

/** The status of several jobs read together: completed only when every one is. */
export function jobsStatus(results: readonly JobResult[]): ImportJobStatus {
  if (results.every((r) => r.status === 'completed')) return 'completed';
  return results.some((r) => r.status === 'unfinished') ? 'unfinished' : 'queued';
}

/**
 * One line for jobs read by id, in the surface's words, e.g. `998 imported, 2 failed, 500 not processed
 * yet (job job_2 keeps running on the service: …)`.
 */
export function describeJobResults(results: readonly JobResult[], words: SurfaceWords = CLIENT_WORDS): string {
  const sum = (key: 'imported' | 'failed' | 'pending') => results.reduce((n, r) => n + r[key], 0);
  const parts = [`${sum('imported')} imported`];
  if (sum('failed')) parts.push(`${sum('failed')} failed`);
  const running = results.filter((r) => r.status !== 'completed').map((r) => r.jobId);
  if (running.length) parts.push(`${sum('pending')} not processed yet (job${running.length === 1 ? '' : 's'} ${running.join(', ')}: ${stillRunning(running, words, false)})`);
  return parts.join(', ');
}

/** Where a job's row error is, in the service's own terms: `job job_1, element 2`. */
export function jobRowPlace(jobId: string, failure: JobRowFailure): string {
  return `job ${jobId}, ${failure.element !== undefined ? `element ${failure.element}` : 'no element named'}`;
}
