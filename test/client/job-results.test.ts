/** src/job-results.ts: one import job read by id, counted and worded once for both surfaces. */
import { describeJobResults, jobResult, jobRowPlace, jobsStatus } from '../../src/job-results.ts';
import type { Job } from '../../src/types.ts';

function job(fields: Partial<Job>): Job {
  return { object: 'job', id: 'job_1', type: 'contacts.bulk', status: 'queued', total: 3, processed: 3, failed: 0, errors: [], created_at: '2026-01-01T00:00:00Z', completed_at: '2026-01-01T00:00:01Z', ...fields };
}

test('imported is processed − failed; each row error keeps the service’s element index and has no HTTP status', () => {
  const r = jobResult(job({ failed: 1, errors: [{ index: 1, error: { type: 'invalid_request_error', code: 'validation_failed', message: 'email is not an address', param: 'email' } }] }), true);
  expect(r).toMatchObject({ jobId: 'job_1', status: 'completed', total: 3, imported: 2, failed: 1, pending: 0 });
  expect(r.rowErrors).toHaveLength(1);
  expect(r.rowErrors[0]).toMatchObject({ element: 1, error: { code: 'validation_failed', param: 'email', status: 0 } });
  expect(jobRowPlace('job_1', r.rowErrors[0]!)).toBe('job job_1, element 1');
  expect(describeJobResults([r])).toBe('2 imported, 1 failed');
});

test('counters the service left out or sent wrong never count below zero; an element without index names none', () => {
  const r = jobResult(job({ processed: 1, failed: 5, total: undefined as never, errors: [{ code: 'row_broken' }] }), false);
  expect(r).toMatchObject({ imported: 0, failed: 5, pending: 0 });
  expect(r.rowErrors[0]!.element).toBeUndefined();
  expect(jobRowPlace('job_1', r.rowErrors[0]!)).toBe('job job_1, no element named');
});

test('status: queued when read without waiting, unfinished when a wait ended; several jobs are completed only when all are', () => {
  const running = job({ id: 'job_2', processed: 1, completed_at: null });
  const queued = jobResult(running, false);
  const unfinished = jobResult(running, true);
  const done = jobResult(job({}), true);
  expect([queued.status, unfinished.status, done.status]).toEqual(['queued', 'unfinished', 'completed']);
  expect(jobsStatus([done, done])).toBe('completed');
  expect(jobsStatus([done, queued])).toBe('queued');
  expect(jobsStatus([queued, unfinished])).toBe('unfinished');
  expect(describeJobResults([done, unfinished])).toBe('4 imported, 2 not processed yet (job job_2: it keeps running on the service: call jobs.wait with its id)');
});
