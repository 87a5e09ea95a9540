/**
 * An import's outcome as one result per contact sent (index into what was sent): imported, failed (a row
 * error, or its call refused), unknown (its call's outcome is unknown: the key settles it), queued (not
 * waiting), unfinished (the wait timed out) or not attempted.
 */
import { readJobRowError } from '../../../src/index.ts';
import type { ImportOutcome, ImportRowError, ImportWaitOutcome, Job } from '../../../src/index.ts';
import type { JobRow, Row } from '../report.ts';
import { errorFields } from './shared.ts';
import type { ModeContext } from './shared.ts';

export interface ContactResult {
  status: string;
  key?: string;
  error?: Row['error'];
}

export interface ContactOutcome {
  results: ContactResult[];
  jobs: (JobRow & { offset: number; count: number })[];
  /** Row errors whose index falls outside their job: reported, never given to someone else's row. */
  unmapped: ImportRowError[];
  allCompleted: boolean;
}

export function mapImportOutcome(ctx: ModeContext, count: number, outcome: ImportOutcome & { waits?: ImportWaitOutcome['waits']; rowErrors?: ImportRowError[] }, waited: boolean): ContactOutcome {
  const results: ContactResult[] = Array.from({ length: count }, () => ({ status: 'queued' }));
  const jobs: ContactOutcome['jobs'] = [];
  let allCompleted = true;
  for (const c of outcome.chunks) {
    const key = 'call' in c ? c.call.idempotencyKey : undefined;
    if (c.status === 'queued') {
      const wait = outcome.waits?.find((w) => w.chunk === c.chunk)?.result;
      const job: Job = wait?.job ?? c.job;
      const done = wait?.status === 'completed';
      if (!done) allCompleted = false;
      const status = !waited ? 'queued' : done ? 'completed' : 'unfinished';
      jobs.push({ id: job.id, offset: c.offset, count: c.count, status, total: job.total, processed: job.processed, failed: job.failed, replayed: c.call.replayed });
      for (let i = c.offset; i < c.offset + c.count; i++) results[i] = { status: !waited ? 'queued' : done ? 'imported' : 'unfinished', key };
    } else {
      allCompleted = false;
      for (let i = c.offset; i < c.offset + c.count; i++) results[i] = { status: c.status, key, error: errorFields(ctx, c.error) };
    }
  }
  const unmapped: ImportRowError[] = [];
  for (const re of outcome.rowErrors ?? []) {
    if (re.index === undefined || re.index < 0 || re.index >= count) unmapped.push(re);
    else results[re.index] = { status: 'failed', key: results[re.index].key, error: errorFields(ctx, re, 'row_error') };
  }
  return { results, jobs, unmapped, allCompleted };
}

/** A job read on its own (mode: job): its row errors by index within that job. */
export function jobRowErrors(job: Job): { index?: number; fields: ReturnType<typeof readJobRowError> }[] {
  return (Array.isArray(job.errors) ? job.errors : []).map((raw) => {
    const fields = readJobRowError(raw);
    return { index: fields.index, fields };
  });
}
