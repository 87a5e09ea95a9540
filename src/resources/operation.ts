import { budgetFor } from '../core.ts';
import type { ClientCore } from '../core.ts';
import { chunk, runChunks } from '../chunking.ts';
import type { Chunk } from '../chunking.ts';
import { inputError } from '../errors.ts';
import { asApiError } from './chunk-errors.ts';
import { chunkIdempotencyKey, validateIdempotencyKey } from '../idempotency.ts';
import type { WaitBudget } from '../rate-limiter.ts';
import type { ChunkEvent, RequestOptions } from '../types.ts';

export interface ChunkCall<T> extends Chunk<T> {
  idempotencyKey: string;
  budget: WaitBudget;
  signal?: AbortSignal;
}

/**
 * The frame of every chunked write: validate the input list and the caller's key, split into chunks
 * each with its own Idempotency-Key (generated once, before the first attempt, and reused on every
 * retry), share one wait budget, run the chunks with bounded concurrency, and tell `onChunk` of each.
 */
export async function runChunkedWrite<T, R>(
  core: ClientCore,
  items: readonly T[],
  size: number,
  what: string,
  options: RequestOptions | undefined,
  work: (call: ChunkCall<T>) => Promise<{ result: R; replayed: boolean }>,
  failed: (call: ChunkCall<T>, error: unknown) => R,
  skipped: (call: ChunkCall<T>, error: unknown) => R,
): Promise<{ results: R[]; error?: unknown }> {
  if (!Array.isArray(items)) throw inputError(`${what} must be a list.`, what);
  const chunks = chunk(items, size);
  const given = options?.idempotencyKey;
  const keyOf =
    typeof given === 'function'
      ? (c: Chunk<T>) => validateIdempotencyKey(given({ chunk: c.chunk, offset: c.offset, items: c.items, chunks: chunks.length }))
      : ((base: string) => (c: Chunk<T>) => chunkIdempotencyKey(base, c.chunk, chunks.length))(given === undefined ? core.newIdempotencyKey() : validateIdempotencyKey(given));
  const budget = budgetFor(core);
  const calls: ChunkCall<T>[] = chunks.map((c) => ({ ...c, idempotencyKey: keyOf(c), budget, signal: options?.signal }));
  const notify = (call: ChunkCall<T>, status: ChunkEvent['status'], startedAt?: number, extra: Partial<ChunkEvent> = {}) =>
    options?.onChunk?.({
      chunk: call.chunk,
      chunks: calls.length,
      offset: call.offset,
      count: call.items.length,
      status,
      idempotencyKey: call.idempotencyKey,
      ms: startedAt === undefined ? undefined : core.runtime.now() - startedAt,
      ...extra,
    });
  return runChunks(
    calls,
    core.concurrency,
    async (c) => {
      const startedAt = core.runtime.now();
      const { result, replayed } = await work(c as ChunkCall<T>);
      notify(c as ChunkCall<T>, 'done', startedAt, { replayed });
      return result;
    },
    (c, error) => {
      const apiError = asApiError(error);
      notify(c as ChunkCall<T>, apiError.outcomeUnknown ? 'unknown' : 'failed', undefined, { error: apiError });
      return failed(c as ChunkCall<T>, error);
    },
    (c, error) => {
      notify(c as ChunkCall<T>, 'skipped', undefined, { error: asApiError(error) });
      return skipped(c as ChunkCall<T>, error);
    },
  );
}
