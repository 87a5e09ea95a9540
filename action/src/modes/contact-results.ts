/**
 * What became of each contact of a streamed import, chunk by chunk: the jobs are waited for within one
 * deadline as `importAndWait` does, then src's importResults is asked about one chunk at a time (its
 * contacts numbered from 0), so no list of every contact is ever built.
 */
import { importResults } from '../../../src/index.ts';
import type { ContactStatus, ImportChunk, ImportResults, ImportWait } from '../../../src/index.ts';
import { asChunkError } from '../../../src/resources/chunk-errors.ts';
import { rowErrorsOf } from '../../../src/resources/contacts.ts';
import { progressLogger } from './shared.ts';
import type { ModeContext } from './shared.ts';

/** Waits for every queued chunk's job until `deadline` (ms since the epoch); a failed poll keeps the job id. */
export async function waitForJobs(ctx: ModeContext, chunks: readonly ImportChunk[], deadline: number): Promise<Map<string, ImportWait>> {
  const waits = new Map<string, ImportWait>();
  for (const c of chunks) {
    if (c.status !== 'queued') continue;
    let result: ImportWait['result'];
    try {
      result = await ctx.client().jobs.wait(c.job.id, { timeoutMs: Math.max(0, deadline - Date.now()), onProgress: progressLogger(ctx) });
    } catch (error) {
      result = { status: 'poll_failed', error: asChunkError(error), job: c.job };
    }
    waits.set(c.job.id, { chunk: c.chunk, offset: c.offset, count: c.count, jobId: c.job.id, result });
  }
  return waits;
}

/** One chunk's contacts (indexes from 0 within the chunk); `waits` undefined when the run did not wait. */
export function chunkResults(c: ImportChunk, waits: Map<string, ImportWait> | undefined): ImportResults {
  const chunk = { ...c, offset: 0 };
  if (!waits) return importResults({ chunks: [chunk] });
  const wait = c.status === 'queued' ? waits.get(c.job.id) : undefined;
  const local = wait ? [{ ...wait, offset: 0 }] : [];
  const totals = { contacts: c.count, queued: 0, processed: 0, failed: 0, jobs: local.length, completedJobs: 0, unfinishedJobs: 0 };
  return importResults({ chunks: [chunk], waits: local, rowErrors: rowErrorsOf(local), totals });
}

/** The counts, unplaced row errors and unfinished jobs of every chunk: what describeImportResults words. */
export function allResults(chunks: readonly ImportChunk[], waits: Map<string, ImportWait> | undefined): ImportResults {
  const counts: Record<ContactStatus, number> = { imported: 0, queued: 0, unfinished: 0, failed: 0, unknown: 0, not_attempted: 0 };
  const all: ImportResults = { contacts: [], counts, unplacedRowErrors: [], unfinishedJobIds: [] };
  for (const c of chunks) {
    const r = chunkResults(c, waits);
    for (const [status, n] of Object.entries(r.counts)) counts[status as ContactStatus] += n;
    all.unplacedRowErrors.push(...r.unplacedRowErrors.map((e) => ({ ...e, index: e.index === undefined ? undefined : c.offset + e.index })));
    all.unfinishedJobIds.push(...r.unfinishedJobIds);
  }
  return all;
}
