import { budgetFor } from '../core.ts';
import type { ClientCore } from '../core.ts';
import { chunkWithin, runChunks, utf8Bytes } from '../chunking.ts';
import type { SizedChunk } from '../chunking.ts';
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
export function runChunkedWrite<T, R>(core: ClientCore, write: ChunkedWrite<T, R>, options: RequestOptions | undefined): Promise<{ results: R[]; error?: unknown }> {
  const { items, what } = write;
  if (!Array.isArray(items)) throw inputError(`${what} must be a list.`, what);
  const run = new ChunkedRun(core, write, options);
  // One call (up to the count bound, within the size bound) is the common case: it needs no chunk list,
  // no lanes, and nothing is left to skip.
  let built: string | undefined;
  if (items.length > 0 && items.length <= write.maxCount) {
    const list = items.slice();
    built = JSON.stringify(write.body(list));
    // At most 3 UTF-8 bytes per UTF-16 unit: a body that fits even so need not be counted.
    const bytes = built.length * 3 <= core.maxBodyBytes ? built.length : utf8Bytes(built);
    if (bytes <= core.maxBodyBytes || list.length === 1) return run.settle(run.call({ chunk: 0, offset: 0, items: list, bodyText: built, bytes }));
  }
  // Too big for one call: cut by size. The whole list's body, already built above, is not built again.
  const whole = (list: T[]) => {
    const text = built ?? JSON.stringify(write.body(list));
    built = undefined;
    return text;
  };
  const chunks = chunkWithin(items, write.maxCount, core.maxBodyBytes, { whole, fromTexts: (texts) => run.bodyText(texts) });
  run.chunks = chunks.length;
  const calls = chunks.map((c) => run.call(c));
  return runChunks(
    calls,
    core.concurrency,
    async (c) => {
      const { results, error } = await run.settle(c as ChunkCall<T>);
      return { value: results, error };
    },
    (c, error) => [run.skip(c as ChunkCall<T>, error)],
  ).then((done) => ({ results: done.results.flat(), error: done.error }));
}

/** One chunked write in progress: its calls' keys, its shared budget, and how each call settles. */
class ChunkedRun<T, R> {
  private readonly core: ClientCore;
  private readonly write: ChunkedWrite<T, R>;
  private readonly options: RequestOptions | undefined;
  private readonly budget: WaitBudget;
  /** The key the calls' keys derive from; undefined when the caller gives a key per chunk (a function). */
  private readonly base: string | undefined;
  /** How many calls the write was cut into (onChunk's `chunks`, and part of every derived key). */
  chunks = 1;
  // Bodies from items' own texts are needed only to cut a chunk that is too big: built on first use.
  private fromTexts: ((texts: string[]) => string) | undefined;

  constructor(core: ClientCore, write: ChunkedWrite<T, R>, options: RequestOptions | undefined) {
    this.core = core;
    this.write = write;
    this.options = options;
    this.budget = budgetFor(core);
    const given = options?.idempotencyKey;
    this.base = typeof given === 'function' ? undefined : given === undefined ? core.newIdempotencyKey() : validateIdempotencyKey(given);
  }

  bodyText(texts: string[]): string {
    return (this.fromTexts ??= bodyBuilder(this.write.body))(texts);
  }

  /** A chunk made a call: its key (from the caller's function, or derived from the base key), budget and signal. */
  call(c: SizedChunk<T>): ChunkCall<T> {
    const { chunks } = this;
    const given = this.options?.idempotencyKey;
    const idempotencyKey =
      typeof given === 'function'
        ? validateIdempotencyKey(given({ chunk: c.chunk, offset: c.offset, items: c.items, chunks }))
        : chunkIdempotencyKey(this.base!, c.chunk, chunks);
    return { chunk: c.chunk, offset: c.offset, items: c.items, bodyText: c.bodyText, bytes: c.bytes, idempotencyKey, budget: this.budget, signal: this.options?.signal };
  }

  private notify(call: ChunkCall<T>, status: ChunkEvent['status'], startedAt?: number, extra: Partial<ChunkEvent> = {}): void {
    this.options?.onChunk?.({
      chunk: call.chunk,
      chunks: this.chunks,
      offset: call.offset,
      count: call.items.length,
      status,
      idempotencyKey: call.idempotencyKey,
      ms: startedAt === undefined ? undefined : this.core.runtime.now() - startedAt,
      ...extra,
    });
  }

  private fail(call: ChunkCall<T>, error: unknown): R {
    const apiError = asChunkError(error);
    this.notify(call, apiError.outcomeUnknown ? 'unknown' : 'failed', undefined, { error: apiError });
    return this.write.failed(call, apiError);
  }

  skip(call: ChunkCall<T>, error: unknown): R {
    this.notify(call, 'skipped', undefined, { error: asChunkError(error) });
    return this.write.skipped(call, error);
  }

  /** One call, split in halves while the service answers 413; never throws. */
  async settle(call: ChunkCall<T>): Promise<{ results: R[]; error?: unknown }> {
    const { core, write } = this;
    if (call.items.length === 1 && call.bytes > core.maxBodyBytes) {
      const error = inputError(`Item ${call.offset} of ${write.what} makes a body of ${call.bytes} bytes, over the ${core.maxBodyBytes}-byte bound (maxBodyBytes); it was not sent.`, `${write.what}[${call.offset}]`);
      return { results: [this.fail(call, error)] };
    }
    const startedAt = core.runtime.now();
    try {
      const { result, replayed } = await write.work(call);
      if (this.options?.onChunk) this.notify(call, 'done', startedAt, { replayed });
      return { results: [result] };
    } catch (error) {
      const apiError = asChunkError(error);
      if (apiError.status !== 413 || apiError.outcomeUnknown || call.items.length < 2) return { results: [this.fail(call, apiError)], error: apiError };
      const [first, second] = halves(call, (texts) => this.bodyText(texts));
      const a = await this.settle(first);
      if (a.error !== undefined) return { results: [...a.results, this.skip(second, a.error)], error: a.error };
      const b = await this.settle(second);
      return { results: [...a.results, ...b.results], error: b.error };
    }
  }
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
