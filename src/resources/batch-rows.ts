import { ApiError, transportError } from '../errors.ts';
import type { ServiceErrorBody } from '../errors.ts';
import type { Chunk } from '../chunking.ts';
import type { BulkOutcome, CallInfo, ItemResult } from '../types.ts';
import { asChunkError, notAttemptedError } from './chunk-errors.ts';

interface Row {
  index?: unknown;
  id?: unknown;
  error?: ServiceErrorBody;
  [field: string]: unknown;
}

function elementError(error: ServiceErrorBody, call: CallInfo): ApiError {
  return new ApiError({
    status: 0, // a row refused inside a 200: it has no HTTP status of its own
    type: typeof error.type === 'string' ? error.type : 'api_error',
    code: typeof error.code === 'string' ? error.code : 'unknown',
    message: typeof error.message === 'string' ? error.message : String(error.code),
    param: typeof error.param === 'string' ? error.param : undefined,
    docUrl: typeof error.doc_url === 'string' ? error.doc_url : undefined,
    requestId: call.requestId,
  });
}

/**
 * Maps the rows of one chunk's answer (`index` relative to the chunk, spec §4) back to the caller's
 * indexes. An element the answer does not mention is reported `unknown` (its outcome is not known;
 * the same key settles it), never dropped.
 */
export function mapRows<T>(chunk: Chunk<T>, data: unknown, call: CallInfo): ItemResult[] {
  const rows = Array.isArray((data as { data?: unknown })?.data) ? ((data as { data: Row[] }).data) : undefined;
  const count = chunk.items.length;
  const results = new Array<ItemResult | undefined>(count);
  let mapped = 0;
  for (let at = 0, end = rows?.length ?? 0; at < end; at++) {
    const row = rows![at];
    const i = row?.index;
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= count || results[i]) continue;
    const index = chunk.offset + i;
    if (typeof row.id === 'string') {
      results[i] = { index, status: 'sent', id: row.id, call, row };
      mapped += 1;
    } else if (row.error && typeof row.error === 'object') {
      results[i] = { index, status: 'failed', error: elementError(row.error, call), wholeCall: false, call };
      mapped += 1;
    }
  }
  // Every element had its row (the common case): nothing is left to fill.
  if (mapped === count) return results as ItemResult[];
  for (let i = 0; i < count; i++) {
    results[i] ??= {
      index: chunk.offset + i,
      status: 'unknown',
      error: new ApiError({
        ...transportError(`The service's answer had no row for element ${i} of chunk ${chunk.chunk}.`, 200, call.requestId).toJSON(),
        outcomeUnknown: true,
      }),
      call,
    };
  }
  return results as ItemResult[];
}

/** Every input of a chunk whose call ended as a whole: refused (`failed`) or not known (`unknown`). */
export function failedChunk<T>(chunk: Chunk<T>, error: unknown, call: CallInfo): ItemResult[] {
  const apiError = asChunkError(error);
  return chunk.items.map((_, i): ItemResult =>
    apiError.outcomeUnknown
      ? { index: chunk.offset + i, status: 'unknown', error: apiError, call }
      : { index: chunk.offset + i, status: 'failed', error: apiError, wholeCall: true, call },
  );
}

/** Every input of a chunk that never went out because an earlier chunk failed as a whole. */
export function skippedChunk<T>(chunk: Chunk<T>, error: unknown, call: CallInfo): ItemResult[] {
  const reason = notAttemptedError(error);
  return chunk.items.map((_, i) => ({ index: chunk.offset + i, status: 'not_attempted' as const, error: reason, call }));
}

export function summarize(results: ItemResult[], error?: unknown): BulkOutcome {
  // Plain counters, not counts[r.status]: a store by a computed name is several times slower per input.
  let sent = 0;
  let failed = 0;
  let unknown = 0;
  let notAttempted = 0;
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!;
    if (r.status === 'sent') sent += 1;
    else if (r.status === 'failed') failed += 1;
    else if (r.status === 'unknown') unknown += 1;
    else notAttempted += 1;
  }
  return {
    results,
    sent,
    failed,
    unknown,
    notAttempted,
    error: error === undefined ? undefined : asChunkError(error),
  };
}
