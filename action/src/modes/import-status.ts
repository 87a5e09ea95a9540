/**
 * `mode: import-status` (formerly `job`) — read (or wait for) the service's import jobs by id.
 * `import-job-ids` takes one id or the `import-job-ids` output of a sync-contacts step (a JSON array, or
 * one per line). With `file`, row errors are annotated at their
 * lines only when the jobs' totals add up to the file's rows (a full sync that sent every row, in job
 * order, however the chunks were split); after an incremental sync or a skipped row they can't be
 * placed, and the step says so instead of blaming someone else's line.
 */
import { ApiError, describeError, isJobFinished, readJobRowError, rowErrorAsApiError, splitRecipients, waitEndedError } from '../../../src/index.ts';
import type { Job } from '../../../src/index.ts';
import type { DataRecord } from '../data-files.ts';
import { InputError } from '../inputs.ts';
import { addRow } from '../report.ts';
import { errorFields, progressLogger, readRecords, rowLevel } from './shared.ts';
import type { ModeContext } from './shared.ts';
import { ACTION_WAIT_WORDS } from '../wait-words.ts';

function jobIds(raw: string): string[] {
  let ids: unknown = undefined;
  if (raw.trim().startsWith('[')) {
    try {
      ids = JSON.parse(raw);
    } catch {
      throw new InputError('import-job-ids', 'looks like a JSON array but is not one.');
    }
  }
  const list = Array.isArray(ids) ? ids.map(String) : splitRecipients(raw);
  if (!list.length) throw new InputError('import-job-ids', 'is required in import-status mode: the import-job-ids output of a sync-contacts step, or one job id (job_…).');
  for (const id of list) if (!/^job_\S+$/.test(id)) throw new InputError('import-job-ids', `must be import job ids (job_…), got "${id}".`);
  return list;
}

async function readJob(ctx: ModeContext, id: string, deadline: number): Promise<{ job: Job; finished: boolean; ended?: ApiError }> {
  const s = ctx.settings;
  try {
    if (!s.wait) {
      const job = await ctx.client().jobs.get(id);
      return { job, finished: isJobFinished(job) };
    }
    const result = await ctx.client().jobs.wait(id, { timeoutMs: Math.max(0, deadline - Date.now()), onProgress: progressLogger(ctx) });
    const ended = waitEndedError(id, result, s.waitTimeoutMs, ACTION_WAIT_WORDS);
    if (!result.job) throw ended ?? new ApiError({ status: 0, type: 'aborted', code: 'aborted', message: `Job ${id} could not be read.` });
    return { job: result.job, finished: result.status === 'completed', ended };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'resource_not_found') throw new InputError('import-job-ids', ctx.log.mask(describeError(error)));
    throw error;
  }
}

export async function importStatusMode(ctx: ModeContext): Promise<void> {
  const { settings: s, report, log } = ctx;
  const ids = jobIds(s.importJobIds);
  const loaded = s.file ? await readRecords(ctx, 'file', s.file, ['contacts'], 'contact') : undefined;
  if (loaded) report.file = loaded.file.path;
  report.jobIds.push(...ids);
  report.details.push([{ label: 'Jobs', value: ids.join(', '), code: true }, ...(s.wait ? [{ label: 'Waiting up to', value: `${s.waitTimeoutMs / 1000} s` }] : [])]);
  if (s.dryRun) return;
  const deadline = Date.now() + s.waitTimeoutMs;
  const read: Awaited<ReturnType<typeof readJob>>[] = [];
  for (const id of ids) read.push(await readJob(ctx, id, deadline));
  const offsets = lineOffsets(ctx, read.map((r) => r.job), loaded?.records.length);
  for (const [n, { job, finished, ended }] of read.entries()) {
    report.jobs.push({ id: job.id, status: finished ? 'completed' : s.wait ? 'unfinished' : 'queued', total: job.total, processed: job.processed, failed: job.failed });
    report.counts.imported += Math.max(0, (job.processed ?? 0) - (job.failed ?? 0));
    report.counts.failed += job.failed ?? 0;
    const offset = offsets?.[n];
    for (const [k, raw] of (Array.isArray(job.errors) ? job.errors : []).entries()) {
      const fields = readJobRowError(raw);
      const index = fields.index;
      const record: DataRecord | undefined = offset !== undefined && index !== undefined && index < (job.total ?? Infinity) ? loaded?.records[offset + index] : undefined;
      const error = errorFields(ctx, rowErrorAsApiError({ ...fields, error: raw }));
      addRow(report, { index: (offset ?? 0) + (index ?? k), line: record?.line, status: 'failed', error });
      const where = record && loaded ? { file: loaded.file.path, startLine: record.line } : {};
      const row = record ? '' : index !== undefined ? ` row ${index + 1} of the job` : '';
      log.annotate(rowLevel(ctx), `Contact not imported (job ${job.id}${row}): ${error.code}: ${error.message}${error.param ? ` (field: ${error.param})` : ''}`, where);
    }
    if (job.failed) report.failures.push(`${job.failed} contact row(s) of ${job.id} failed.`);
    if (ended) report.failures.push(ctx.log.mask(ended.message));
  }
  report.jobStatus = read.every((r) => r.finished) ? 'completed' : s.wait ? 'unfinished' : 'queued';
}

/** Where each job's rows start in the file, or undefined when the jobs' totals don't account for exactly its rows. */
function lineOffsets(ctx: ModeContext, jobs: Job[], rows: number | undefined): number[] | undefined {
  if (rows === undefined) return undefined;
  const offsets: number[] = [];
  let sum = 0;
  for (const job of jobs) {
    offsets.push(sum);
    sum += typeof job.total === 'number' ? job.total : NaN;
  }
  if (sum === rows) return offsets;
  ctx.log.info(`Row errors are not placed at lines of ${ctx.report.file}: its ${rows} row(s) are not the ${Number.isNaN(sum) ? 'jobs’' : `${sum}`} contact(s) of these jobs (an incremental sync, a skipped row or a job left out), so each is named by its row in its job.`);
  return undefined;
}
