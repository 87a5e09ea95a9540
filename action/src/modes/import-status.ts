/**
 * `mode: import-status` (formerly `job`) — read (or wait for) the service's import jobs by id.
 * `import-job-ids` takes one id or the `import-job-ids` output of a sync-contacts step (a JSON array, or
 * one per line). With `file`, row errors are annotated at their
 * lines only when the jobs' totals add up to the file's rows (a full sync that sent every row, in job
 * order, however the chunks were split); after an incremental sync or a skipped row they can't be
 * placed, and the step says so instead of blaming someone else's line.
 */
import { ApiError, describeError, describeJobResults, jobResult, jobRowPlace, jobsStatus, refusedText, splitRecipients, waitEndedError } from '../../../src/index.ts';
import type { Job } from '../../../src/index.ts';
import type { DataRecord } from '../data-files.ts';
import { InputError } from '../inputs.ts';
import { addRow } from '../report.ts';
import { errorFields, progressLogger, readRecords, rowLevel } from './shared.ts';
import type { ModeContext } from './shared.ts';
import { ACTION_WORDS } from '../surface-words.ts';

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

async function readJob(ctx: ModeContext, id: string, deadline: number): Promise<{ job: Job; ended?: ApiError }> {
  const s = ctx.settings;
  try {
    if (!s.wait) return { job: await ctx.client().jobs.get(id) };
    const result = await ctx.client().jobs.wait(id, { timeoutMs: Math.max(0, deadline - Date.now()), onProgress: progressLogger(ctx) });
    const ended = waitEndedError(id, result, s.waitTimeoutMs, ACTION_WORDS);
    if (!result.job) throw ended ?? new ApiError({ status: 0, type: 'aborted', code: 'aborted', message: `Job ${id} could not be read.` });
    return { job: result.job, ended };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'resource_not_found') throw new InputError('import-job-ids', ctx.log.mask(describeError(error, { words: ACTION_WORDS })));
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
  const results = read.map(({ job }) => jobResult(job, s.wait));
  const offsets = lineOffsets(ctx, read.map((r) => r.job), loaded?.records.length);
  for (const [n, result] of results.entries()) {
    report.jobs.push({ id: result.jobId, status: result.status, total: result.total, processed: read[n]!.job.processed, failed: result.failed });
    report.counts.imported += result.imported;
    report.counts.failed += result.failed;
    const offset = offsets?.[n];
    for (const [k, failure] of result.rowErrors.entries()) {
      const { element } = failure;
      const record: DataRecord | undefined = offset !== undefined && element !== undefined && element < result.total ? loaded?.records[offset + element] : undefined;
      // A row is named by its line of the file when it can be placed; else by the service's own element index.
      addRow(report, { index: (offset ?? 0) + (element ?? k), line: record?.line, status: 'failed', error: errorFields(ctx, failure.error) });
      const where = record && loaded ? { file: loaded.file.path, startLine: record.line } : {};
      log.annotate(rowLevel(ctx), refusedText('contact', failure.error, { words: ACTION_WORDS, which: record ? `job ${result.jobId}` : jobRowPlace(result.jobId, failure) }), where);
    }
    if (result.failed) report.failures.push(`${result.failed} contact row(s) of ${result.jobId} failed.`);
    const ended = read[n]!.ended;
    if (ended) report.failures.push(ctx.log.mask(ended.message));
  }
  report.notes.push(`Contacts: ${log.mask(describeJobResults(results, ACTION_WORDS))}.`);
  report.jobStatus = jobsStatus(results);
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
  ctx.log.info(`Row errors are not placed at lines of ${ctx.report.file}: its ${rows} row(s) are not the ${Number.isNaN(sum) ? 'jobs’' : `${sum}`} contact(s) of these jobs (an incremental sync, a skipped row or a job left out), so each is named by its job and the service’s element index.`);
  return undefined;
}
