import { ApiError } from './errors.ts';
import type { ImportOutcome, ImportRowError, ImportWait, ImportWaitOutcome } from './types.ts';
import { CLIENT_WORDS } from './surface-words.ts';
import type { SurfaceWords } from './surface-words.ts';
import { stillRunning, waitEndedError } from './wait-ending.ts';

/**
 * What became of one contact of an import:
 * - imported: its job finished and named no error for it;
 * - queued: its job was queued and not waited for;
 * - unfinished: its job was queued but did not finish while we waited (timeout, cancel, failed poll):
 *   `jobId` reads it again later;
 * - failed: its job named an error for it, or its chunk's call was refused (nothing was queued);
 * - unknown: its chunk's call may or may not have queued a job: import again with `idempotencyKey`;
 * - not_attempted: an earlier failure stopped the run before its chunk went out.
 */
export type ContactStatus = 'imported' | 'queued' | 'unfinished' | 'failed' | 'unknown' | 'not_attempted';

export interface ContactResult {
  /** The caller's index. */
  index: number;
  status: ContactStatus;
  chunk: number;
  /** The key of its chunk's call: importing the same chunk again with it never imports twice. */
  idempotencyKey: string;
  jobId?: string;
  /** The job was answered from the service's idempotency store (an earlier attempt queued it). */
  replayed: boolean;
  error?: ApiError;
}

export interface ImportResults {
  /** One per contact, in the caller's order. */
  contacts: ContactResult[];
  counts: Record<ContactStatus, number>;
  /**
   * Row errors that name no contact of their chunk (no index, or one outside the chunk): reported as
   * such, never assigned to another contact.
   */
  unplacedRowErrors: ImportRowError[];
  /** Jobs that did not finish while we waited: they keep running; read them again later. */
  unfinishedJobIds: string[];
}

/**
 * A job's row error as the layer's error type. The element's shape is not shown (spec §2): a missing
 * code is `row_error`, a missing message names the element as the service sent it.
 */
export function rowErrorAsApiError(row: Pick<ImportRowError, 'type' | 'code' | 'message' | 'param' | 'error'>): ApiError {
  const code = row.code ?? 'row_error';
  let raw: string;
  try {
    raw = JSON.stringify(row.error) ?? String(row.error);
  } catch {
    raw = String(row.error);
  }
  return new ApiError({
    status: 0, // a row of a job: no HTTP status of its own
    type: row.type ?? 'invalid_request_error',
    code,
    message: row.message ?? `The service reported this row failed: ${raw.length > 300 ? `${raw.slice(0, 300)}…` : raw}`,
    param: row.param,
  });
}

/** Per-contact results of an import, waited for (`importAndWait`) or not (`import`). */
export function importResults(outcome: ImportOutcome | ImportWaitOutcome): ImportResults {
  const waits = new Map<string, ImportWait>(('waits' in outcome ? outcome.waits : []).map((w) => [w.jobId, w]));
  const contacts: ContactResult[] = [];
  const unfinishedJobIds: string[] = [];
  for (const c of outcome.chunks) {
    const base = { chunk: c.chunk, idempotencyKey: c.call.idempotencyKey, replayed: c.call.replayed };
    if (c.status !== 'queued') {
      for (let k = 0; k < c.count; k++) contacts.push({ ...base, index: c.offset + k, status: c.status, error: c.error });
      continue;
    }
    const wait = waits.get(c.job.id);
    const ended = wait ? waitEndedError(c.job.id, wait.result) : undefined;
    if (ended) unfinishedJobIds.push(c.job.id);
    const status: ContactStatus = !('waits' in outcome) ? 'queued' : ended || !wait ? 'unfinished' : 'imported';
    for (let k = 0; k < c.count; k++) contacts.push({ ...base, index: c.offset + k, status, jobId: c.job.id, ...(ended ? { error: ended } : {}) });
  }
  contacts.sort((a, b) => a.index - b.index);
  const unplacedRowErrors: ImportRowError[] = [];
  for (const row of 'rowErrors' in outcome ? outcome.rowErrors : []) {
    const contact = row.index === undefined ? undefined : contacts[row.index];
    if (!contact || contact.index !== row.index || contact.jobId !== row.jobId) {
      unplacedRowErrors.push(row);
      continue;
    }
    contact.status = 'failed';
    contact.error = rowErrorAsApiError(row);
  }
  const counts: Record<ContactStatus, number> = { imported: 0, queued: 0, unfinished: 0, failed: 0, unknown: 0, not_attempted: 0 };
  for (const c of contacts) counts[c.status] += 1;
  return { contacts, counts, unplacedRowErrors, unfinishedJobIds };
}

/** One line for an import, e.g. `998 imported, 2 failed, 1000 unfinished (job job_2 still running: …)`, in the surface's words. */
export function describeImportResults(results: ImportResults, words: SurfaceWords = CLIENT_WORDS): string {
  const { counts } = results;
  const parts: string[] = [];
  if (counts.imported || (!counts.queued && !counts.unfinished)) parts.push(`${counts.imported} imported`);
  if (counts.queued) parts.push(`${counts.queued} queued`);
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (results.unplacedRowErrors.length) parts.push(`${results.unplacedRowErrors.length} row error(s) naming no row of their job`);
  if (counts.unfinished) {
    const ids = results.unfinishedJobIds;
    parts.push(`${counts.unfinished} unfinished (job${ids.length === 1 ? '' : 's'} ${ids.join(', ')}: ${stillRunning(ids, words, false)})`);
  }
  if (counts.unknown) parts.push(`${counts.unknown} unknown (import again with the same keys: it replays or completes, never twice)`);
  if (counts.not_attempted) parts.push(`${counts.not_attempted} not attempted`);
  return parts.join(', ');
}
