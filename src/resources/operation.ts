import { budgetFor } from '../core.ts';
import type { ClientCore } from '../core.ts';
import { chunkWithin, runChunks, utf8Bytes } from '../chunking.ts';
import type { Chunk, SizedChunk } from '../chunking.ts';
import { inputError } from '../errors.ts';
import { chunkIdempotencyKey, splitIdempotencyKey, validateIdempotencyKey } from '../idempotency.ts';
import type { WaitBudget } from '../rate-limiter.ts';
import type { ChunkEvent, RequestOptions } from '../types.ts';
import { asChunkError } from './chunk-errors.ts';

export interface ChunkCall<T> extends SizedChunk<T> {
  idempotencyKey: string;
  budget: WaitBudget;
  signal?: AbortSignal;
}

/** What a chunked write is: its items, the per-call count bound, and the body it sends for a list. */
export interface ChunkedWrite<T, R> {
  items: readonly T[];
  maxCount: number;
  /** Names the list in errors (`messages`, `to`, `contacts`). */
  what: string;
  body: (items: T[]) => unknown;
  work: (call: ChunkCall<T>) => Promise<{ result: R; replayed: boolean }>;
  failed: (call: ChunkCall<T>, error: unknown) => R;
  skipped: (call: ChunkCall<T>, error: unknown) => R;
}

/**
 * The frame of every chunked write: validate the input list and the caller's key, split into chunks
 * bounded by count and by body size (`maxBodyBytes`), each with its own Idempotency-Key (generated once,
 * before the first attempt, and reused on every retry), share one wait budget, run the chunks with
 * bounded concurrency, and tell `onChunk` of each call.
 *
 * A call the service refuses as too large (HTTP 413) is split in half and each half sent under its own
 * key (`<key>.0`, `<key>.1`: deterministic, and never the whole chunk's key with another body). A single
 * item larger than `maxBodyBytes` is refused before sending, without stopping the run.
 */
export async function runChunkedWrite<T, R>(core: ClientCore, write: ChunkedWrite<T, R>, options: RequestOptions | undefined): Promise<{ results: R[]; error?: unknown }> {
  const { items, what } = write;
  if (!Array.isArray(items)) throw inputError(`${what} must be a list.`, what);
  // Bodies from items' own texts are needed only to cut a chunk that is too big: built on first use.
  let fromTexts: ((texts: string[]) => string) | undefined;
  const bodyText = (texts: string[]) => (fromTexts ??= bodyBuilder(write.body))(texts);
  const chunks = chunkWithin(items, write.maxCount, core.maxBodyBytes, { whole: (list) => JSON.stringify(write.body(list)), fromTexts: bodyText });
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
  const fail = (call: ChunkCall<T>, error: unknown): R => {
    const apiError = asChunkError(error);
    notify(call, apiError.outcomeUnknown ? 'unknown' : 'failed', undefined, { error: apiError });
    return write.failed(call, apiError);
  };
  const skip = (call: ChunkCall<T>, error: unknown): R => {
    notify(call, 'skipped', undefined, { error: asChunkError(error) });
    return write.skipped(call, error);
  };

  /** One call, split in halves while the service answers 413; never throws. */
  const settle = async (call: ChunkCall<T>): Promise<{ results: R[]; error?: unknown }> => {
    if (call.items.length === 1 && call.bytes > core.maxBodyBytes) {
      const error = inputError(`Item ${call.offset} of ${what} makes a body of ${call.bytes} bytes, over the ${core.maxBodyBytes}-byte bound (maxBodyBytes); it was not sent.`, `${what}[${call.offset}]`);
      return { results: [fail(call, error)] };
    }
    const startedAt = core.runtime.now();
    try {
      const { result, replayed } = await write.work(call);
      notify(call, 'done', startedAt, { replayed });
      return { results: [result] };
    } catch (error) {
      const apiError = asChunkError(error);
      if (apiError.status !== 413 || apiError.outcomeUnknown || call.items.length < 2) return { results: [fail(call, apiError)], error: apiError };
      const [first, second] = halves(call, bodyText);
      const a = await settle(first);
      if (a.error !== undefined) return { results: [...a.results, skip(second, a.error)], error: a.error };
      const b = await settle(second);
      return { results: [...a.results, ...b.results], error: b.error };
    }
  };

  // One call (up to 500 inputs) is the common case: it needs no lanes, and nothing is left to skip.
  if (calls.length === 1) return settle(calls[0]!);
  const run = await runChunks(
    calls,
    core.concurrency,
    async (c) => {
      const { results, error } = await settle(c as ChunkCall<T>);
      return { value: results, error };
    },
    (c, error) => [skip(c as ChunkCall<T>, error)],
  );
  return { results: run.results.length === 1 ? run.results[0]! : run.results.flat(), error: run.error };
}

/**
 * Builds a body from its items' JSON texts: the body of a one-item list holding a marker, with the
 * marker replaced by the joined texts. The marker is looked up from the end, where the list sits in
 * every body of ours (`{ messages }`, `{ ...message, to }`, `{ contacts }`).
 */
export function bodyBuilder<T>(body: (items: T[]) => unknown): (texts: string[]) => string {
  const marker = JSON.stringify('\u0000chunk-items\u0000');
  const template = JSON.stringify(body([JSON.parse(marker) as T]));
  const at = template.lastIndexOf(marker);
  const head = template.slice(0, at);
  const tail = template.slice(at + marker.length);
  return (texts) => `${head}${texts.join(',')}${tail}`;
}

function halves<T>(call: ChunkCall<T>, bodyText: (texts: string[]) => string): [ChunkCall<T>, ChunkCall<T>] {
  const mid = Math.ceil(call.items.length / 2);
  const part = (from: number, to: number, half: 0 | 1): ChunkCall<T> => {
    const items = call.items.slice(from, to);
    const text = bodyText(items.map((item) => JSON.stringify(item) ?? 'null'));
    return { ...call, offset: call.offset + from, items, bodyText: text, bytes: utf8Bytes(text), idempotencyKey: splitIdempotencyKey(call.idempotencyKey, half) };
  };
  return [part(0, mid, 0), part(mid, call.items.length, 1)];
}
