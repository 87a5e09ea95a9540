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

/** How the call that carried an input went. */
export interface CallInfo {
  /** Zero-based chunk number within the logical operation. */
  chunk: number;
  idempotencyKey?: string;
  requestId?: string;
  /** The service answered from its idempotency store (`Idempotent-Replay: true`). */
  replayed: boolean;
}

/**
 * Exactly one result per input, in the caller's order, `index` being the caller's own index:
 * - sent: the service created it (`id`; `row` is the service's row, unknown fields included);
 * - failed: the service refused this element (element-level error of §7), or the call carrying it
 *   failed as a whole (`wholeCall: true`; for a transport error the outcome is unknown and a retry
 *   with the same Idempotency-Key settles it without a duplicate);
 * - not_attempted: an earlier whole-call failure stopped the run before this input's call went out.
 *   Nothing was created for it.
 */
export type ItemResult =
  | { index: number; status: 'sent'; id: string; call: CallInfo; row: Record<string, unknown> }
  | { index: number; status: 'failed'; error: ApiError; wholeCall: boolean; call: CallInfo }
  | { index: number; status: 'not_attempted'; error: ApiError };

export interface BulkOutcome<R = ItemResult> {
  results: R[];
  sent: number;
  failed: number;
  notAttempted: number;
  /** The whole-call failure that stopped the run, if any. Inputs before it are still reported. */
  error?: ApiError;
}

/**
 * One chunk of an import (≤1000 contacts from the caller's `offset`): its job was queued (or replayed),
 * its call failed as a whole, or an earlier failure stopped the run before it went out.
 */
export type ImportChunk =
  | { chunk: number; offset: number; count: number; status: 'queued'; job: Job; call: CallInfo }
  | { chunk: number; offset: number; count: number; status: 'failed'; error: ApiError; call: CallInfo }
  | { chunk: number; offset: number; count: number; status: 'not_attempted'; error: ApiError };

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
  /** The caller's index, when the service's element carries a numeric `index`. */
  index?: number;
  jobId: string;
  chunk: number;
  type?: string;
  code?: string;
  message?: string;
  param?: string;
  /** The element exactly as the service sent it. */
  error: unknown;
}

export interface ImportWaitOutcome extends ImportOutcome {
  /** One per queued chunk, in chunk order. */
  waits: { chunk: number; offset: number; result: WaitResult }[];
  rowErrors: ImportRowError[];
  totals: { contacts: number; queued: number; processed: number; failed: number; jobs: number; completedJobs: number; unfinishedJobs: number };
}

export type WaitResult =
  | { status: 'completed'; job: Job }
  | { status: 'timeout'; job?: Job }
  | { status: 'aborted'; job?: Job };

export interface RequestOptions {
  /**
   * Caller-supplied key (≤255 chars); for chunked calls each chunk gets `<key>:chunk-<n>`. Or a function
   * giving each chunk its own key (e.g. derived from the chunk's payload, so a retry of an unchanged
   * chunk replays even when another chunk changed). Default: a random key per logical write.
   */
  idempotencyKey?: string | ((chunk: { chunk: number; offset: number; items: readonly unknown[]; chunks: number }) => string);
  signal?: AbortSignal;
  /** Told when each chunk's call ends (for progress lines in long runs). */
  onChunk?: (event: ChunkEvent) => void;
}

export interface ChunkEvent {
  chunk: number;
  chunks: number;
  offset: number;
  count: number;
  /** done: the call answered; failed: it failed as a whole; skipped: an earlier failure stopped the run. */
  status: 'done' | 'failed' | 'skipped';
  /** The answer came from the service's idempotency store. */
  replayed?: boolean;
  idempotencyKey: string;
  /** Time the call took, retries and waits included. */
  ms?: number;
  error?: ApiError;
}
