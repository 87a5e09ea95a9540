import type { ApiError } from './errors.ts';

/** One element of `POST /messages/batch` (spec §2). Unknown fields pass through to the service. */
export interface MessageElement {
  channel: string;
  to: string;
  subject?: string;
  body: string;
  [field: string]: unknown;
}

/**
 * `POST /messages` (request fields are "not shown" in the spec; the documented choice shared with the
 * sandbox): one message to up to 100 recipients per call; more are chunked.
 */
export interface SendMessageInput {
  channel: string;
  to: string[];
  subject?: string;
  body: string;
  [field: string]: unknown;
}

/** A contact element of `POST /contacts/bulk` (spec §2). Further fields are "not shown": passed through. */
export interface ContactInput {
  first_name?: string;
  whatsapp?: string;
  email?: string;
  [field: string]: unknown;
}

/** Job (spec §2). Only `queued` is a shown status: finished means `completed_at` is set. */
export interface Job {
  object: 'job';
  id: string;
  type: string;
  status: string;
  total: number;
  processed: number;
  failed: number;
  errors: unknown[];
  created_at: string;
  completed_at?: string | null;
  [field: string]: unknown;
}

export interface ListPage<T> {
  data: T[];
  meta: { has_more: boolean; next_cursor?: string | null };
}

/** How the call that carried an input went (or would have gone: `not_attempted` names its key too). */
export interface CallInfo {
  /** Zero-based chunk number within the logical operation. */
  chunk: number;
  /** The Idempotency-Key this input's call used (or would have used). Sending again with it never sends twice. */
  idempotencyKey: string;
  requestId?: string;
  /** The service answered from its idempotency store (`Idempotent-Replay: true`). */
  replayed: boolean;
}

/** What became of one input. */
export type ItemStatus = 'sent' | 'failed' | 'unknown' | 'not_attempted';

/**
 * Exactly one result per input, in the caller's order, `index` being the caller's own index:
 * - sent: the service created it (`id`; `row` is the service's row, unknown fields included);
 * - failed: the service refused this element (element-level error of §7), or refused the call carrying
 *   it as a whole (`wholeCall: true`; a definitive 4xx or 429: nothing was created);
 * - unknown: the call carrying it may or may not have been committed (see outcome-certainty.ts).
 *   Sending again with `call.idempotencyKey` (the same chunk) replays the answer or completes the write,
 *   never twice;
 * - not_attempted: an earlier whole-call failure stopped the run before this input's call went out.
 *   Nothing was created for it; `call.idempotencyKey` is the key it would have used.
 */
export type ItemResult =
  | { index: number; status: 'sent'; id: string; call: CallInfo; row: Record<string, unknown> }
  | { index: number; status: 'failed'; error: ApiError; wholeCall: boolean; call: CallInfo }
  | { index: number; status: 'unknown'; error: ApiError; call: CallInfo }
  | { index: number; status: 'not_attempted'; error: ApiError; call: CallInfo };

export interface BulkOutcome<R = ItemResult> {
  results: R[];
  sent: number;
  failed: number;
  unknown: number;
  notAttempted: number;
  /** The whole-call failure that stopped the run, if any. Inputs before it are still reported. */
  error?: ApiError;
}

/**
 * One chunk of an import (≤1000 contacts from the caller's `offset`): its job was queued (or replayed),
 * its call was refused as a whole, its outcome is unknown (a job may have been queued: send again with
 * the same key), or an earlier failure stopped the run before it went out.
 */
export type ImportChunk =
  | { chunk: number; offset: number; count: number; status: 'queued'; job: Job; call: CallInfo }
  | { chunk: number; offset: number; count: number; status: 'failed'; error: ApiError; call: CallInfo }
  | { chunk: number; offset: number; count: number; status: 'unknown'; error: ApiError; call: CallInfo }
  | { chunk: number; offset: number; count: number; status: 'not_attempted'; error: ApiError; call: CallInfo };

export interface ImportOutcome {
  chunks: ImportChunk[];
  /** The whole-call failure that stopped the run, if any. */
  error?: ApiError;
}

/**
 * A per-row import error mapped back to the caller's index (`offset` + the row's index in its job), with
 * the fields `readJobRowError` could read from the element (its shape is "not shown").
 */
export interface ImportRowError {
  /**
   * The caller's index, when the service's element carries a numeric `index` inside its job's chunk.
   * An index outside the chunk is never assigned to another row: `index` is then absent and
   * `outsideChunk` is true (`rowInJob` keeps what the service said).
   */
  index?: number;
  /** The element's own `index`, as the service sent it (relative to the job). */
  rowInJob?: number;
  outsideChunk?: boolean;
  jobId: string;
  chunk: number;
  type?: string;
  code?: string;
  message?: string;
  param?: string;
  /** The element exactly as the service sent it. */
  error: unknown;
}

/**
 * How waiting for one queued chunk's job ended. `poll_failed`: reading the job failed (after the
 * client's retries); the job keeps running on the service and `jobId` resumes it with `jobs.wait`.
 */
export interface ImportWait {
  chunk: number;
  offset: number;
  /** Contacts in the job (a chunk split after a 413 has one job per half). */
  count: number;
  jobId: string;
  result: WaitResult | { status: 'poll_failed'; error: ApiError; job?: Job };
}

export interface ImportWaitOutcome extends ImportOutcome {
  /** One per queued chunk, in chunk order. */
  waits: ImportWait[];
  rowErrors: ImportRowError[];
  totals: { contacts: number; queued: number; processed: number; failed: number; jobs: number; completedJobs: number; unfinishedJobs: number };
}

export type WaitResult =
  | { status: 'completed'; job: Job }
  | { status: 'timeout'; job?: Job }
  | { status: 'aborted'; job?: Job };

/** What a per-chunk key function is given: the chunk's number, where it starts, its items, how many chunks. */
export interface ChunkKeyInput {
  chunk: number;
  offset: number;
  items: readonly unknown[];
  chunks: number;
}

export interface RequestOptions {
  /**
   * Caller-supplied key (≤255 chars); for chunked calls each chunk gets `<key>:chunk-<n>`. Or a function
   * giving each chunk its own key (e.g. derived from the chunk's payload, so a retry of an unchanged
   * chunk replays even when another chunk changed). Default: a random key per logical write.
   */
  idempotencyKey?: string | ((chunk: ChunkKeyInput) => string);
  signal?: AbortSignal;
  /** Told when each chunk's call ends (for progress lines in long runs). */
  onChunk?: (event: ChunkEvent) => void;
}

export interface ChunkEvent {
  chunk: number;
  chunks: number;
  offset: number;
  count: number;
  /**
   * done: the call answered; failed: it was refused as a whole; unknown: it ended without a definitive
   * answer (send again with `idempotencyKey`); skipped: an earlier failure stopped the run.
   */
  status: 'done' | 'failed' | 'unknown' | 'skipped';
  /** The answer came from the service's idempotency store. */
  replayed?: boolean;
  idempotencyKey: string;
  /** Time the call took, retries and waits included. */
  ms?: number;
  error?: ApiError;
}
