import { budgetFor } from '../core.ts';
import type { ClientCore } from '../core.ts';
import { ApiError, inputError, transportError } from '../errors.ts';
import { asChunkError, notAttemptedError } from './chunk-errors.ts';
import { Paginator, pageSizeFor } from '../pagination.ts';
import type { CallInfo, ContactInput, ImportChunk, ImportOutcome, ImportRowError, ImportWait, ImportWaitOutcome, Job, ListPage, RequestOptions } from '../types.ts';
import type { WaitOptions } from '../job-waiter.ts';
import type { Jobs } from './jobs.ts';
import { readJobRowError } from '../job-row-error.ts';
import { runChunkedWrite } from './operation.ts';

export const MAX_IMPORT_CONTACTS = 1000; // spec §8

export interface ListOptions {
  /** Page size (1..100). When walking everything, 100 (the cap) is used unless given. */
  limit?: number;
  /** A `next_cursor` from an earlier page, handed back as `starting_after`, as is. */
  startingAfter?: string;
  signal?: AbortSignal;
  /** Walks only: the most pages to fetch before stopping with `page_cap_reached` (default: the client's `maxPages`). */
  maxPages?: number;
}

export class Contacts {
  private readonly core: ClientCore;
  private readonly jobs: Jobs;
  constructor(core: ClientCore, jobs: Jobs) {
    this.core = core;
    this.jobs = jobs;
  }

  /** Queues jobs of ≤1000 contacts (`POST /contacts/bulk`, 202). Nothing is created until a job runs. */
  async import(contacts: readonly ContactInput[], options?: RequestOptions): Promise<ImportOutcome> {
    const { results, error } = await runChunkedWrite<ContactInput, ImportChunk>(
      this.core,
      {
        items: contacts,
        maxCount: MAX_IMPORT_CONTACTS,
        what: 'contacts',
        body: (items) => ({ contacts: items }),
        work: async (call) => {
          const response = await this.core.sender.send<{ data?: Job }>({
            method: 'POST',
            path: '/contacts/bulk',
            bodyText: call.bodyText,
            idempotencyKey: call.idempotencyKey,
            signal: call.signal,
            budget: call.budget,
          });
          const job = response.data?.data;
          if (!job || typeof job.id !== 'string') {
            // A 2xx without its job: a job may have been queued, and only the same key can tell.
            throw new ApiError({ ...transportError('The answer to POST /contacts/bulk had no job.', response.status, response.requestId).toJSON(), outcomeUnknown: true });
          }
          const queued: ImportChunk = {
            chunk: call.chunk,
            offset: call.offset,
            count: call.items.length,
            status: 'queued',
            job,
            call: { chunk: call.chunk, idempotencyKey: call.idempotencyKey, requestId: response.requestId, replayed: response.replayed },
          };
          return { result: queued, replayed: response.replayed };
        },
        failed: (call, err) => {
          const error = asChunkError(err);
          const info: CallInfo = { chunk: call.chunk, idempotencyKey: call.idempotencyKey, requestId: error.requestId, replayed: false };
          return { chunk: call.chunk, offset: call.offset, count: call.items.length, status: error.outcomeUnknown ? 'unknown' : 'failed', error, call: info };
        },
        skipped: (call, err) => ({
          chunk: call.chunk,
          offset: call.offset,
          count: call.items.length,
          status: 'not_attempted',
          error: notAttemptedError(err),
          call: { chunk: call.chunk, idempotencyKey: call.idempotencyKey, replayed: false },
        }),
      },
      options,
    );
    return { chunks: results, error: error === undefined ? undefined : asChunkError(error) };
  }

  /**
   * Imports and waits for every queued job within one overall timeout; per-row errors are mapped to the
   * caller's indexes through each job's chunk offset. A poll that fails does not lose the job: its wait
   * is `poll_failed` with the job id, to read it again later.
   */
  async importAndWait(contacts: readonly ContactInput[], options: RequestOptions & Omit<WaitOptions, 'signal'>): Promise<ImportWaitOutcome> {
    if (!options || !Number.isFinite(options.timeoutMs)) throw inputError('Waiting for an import needs a timeout in ms (timeoutMs).', 'timeoutMs');
    const deadline = this.core.runtime.now() + options.timeoutMs;
    const outcome = await this.import(contacts, options);
    const waits: ImportWait[] = [];
    for (const c of outcome.chunks) {
      if (c.status !== 'queued') continue;
      const timeoutMs = Math.max(0, deadline - this.core.runtime.now());
      let result: ImportWait['result'];
      try {
        result = await this.jobs.wait(c.job.id, { ...options, timeoutMs });
      } catch (error) {
        result = { status: 'poll_failed', error: asChunkError(error), job: c.job };
      }
      waits.push({ chunk: c.chunk, offset: c.offset, count: c.count, jobId: c.job.id, result });
    }
    return { ...outcome, waits, rowErrors: rowErrorsOf(waits), totals: totalsOf(contacts.length, outcome.chunks, waits) };
  }

  /** One page of `GET /contacts`. */
  async listPage(options?: ListOptions): Promise<ListPage<Record<string, unknown>>> {
    const limit = options?.limit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) throw inputError('limit must be a whole number from 1 to 100.', 'limit');
    const response = await this.core.sender.send<ListPage<Record<string, unknown>>>({
      method: 'GET',
      path: '/contacts',
      query: { limit, starting_after: options?.startingAfter },
      signal: options?.signal,
      budget: budgetFor(this.core),
    });
    const page = response.data;
    if (!Array.isArray(page?.data) || typeof page.meta?.has_more !== 'boolean') {
      throw transportError('The answer to GET /contacts was not a list page (data + meta.has_more).', response.status, response.requestId);
    }
    return page;
  }

  /** Every contact from the cursor on, page by page (`for await`, `.pages()`, `.toArray({ max })`). */
  list(options?: ListOptions): Paginator<Record<string, unknown>> {
    const limit = pageSizeFor(options?.limit);
    return new Paginator((cursor) => this.listPage({ limit, startingAfter: cursor, signal: options?.signal }), options?.startingAfter, options?.maxPages ?? this.core.maxPages);
  }
}

/** Row errors of finished jobs, mapped to the caller's index only when they fall inside their chunk. */
/** The row errors of waited jobs, at the caller's indexes (a chunk's offset plus the row in its job). */
export function rowErrorsOf(waits: ImportWait[]): ImportRowError[] {
  const rowErrors: ImportRowError[] = [];
  for (const { chunk, offset, count, result } of waits) {
    const job = result.job;
    if (!job) continue;
    for (const error of Array.isArray(job.errors) ? job.errors : []) {
      const { index, ...fields } = readJobRowError(error);
      const inside = index !== undefined && index < count;
      rowErrors.push({
        ...fields,
        index: inside ? offset + index : undefined,
        rowInJob: index,
        ...(index !== undefined && !inside ? { outsideChunk: true } : {}),
        jobId: job.id,
        chunk,
        error,
      });
    }
  }
  return rowErrors;
}

function totalsOf(contacts: number, chunks: ImportChunk[], waits: ImportWait[]): ImportWaitOutcome['totals'] {
  let processed = 0;
  let failed = 0;
  let completedJobs = 0;
  for (const { result } of waits) {
    processed += result.job?.processed ?? 0;
    failed += result.job?.failed ?? 0;
    if (result.status === 'completed') completedJobs += 1;
  }
  const queued = chunks.filter((c) => c.status === 'queued').reduce((n, c) => n + c.count, 0);
  return { contacts, queued, processed, failed, jobs: waits.length, completedJobs, unfinishedJobs: waits.length - completedJobs };
}
