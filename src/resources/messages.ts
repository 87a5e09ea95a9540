import { budgetFor } from '../core.ts';
import type { ClientCore } from '../core.ts';
import { inputError } from '../errors.ts';
import type { BulkOutcome, CallInfo, MessageElement, RequestOptions, SendMessageInput } from '../types.ts';
import { failedChunk, mapRows, skippedChunk, summarize } from './batch-rows.ts';
import { asChunkError } from './chunk-errors.ts';
import { runChunkedWrite } from './operation.ts';
import { unwrap } from './unwrap.ts';
import type { ChunkCall } from './operation.ts';

export const MAX_BATCH_MESSAGES = 500; // spec §8
export const MAX_RECIPIENTS = 100; // spec §8

function callInfo<T>(call: ChunkCall<T>, requestId?: string, replayed = false): CallInfo {
  return { chunk: call.chunk, idempotencyKey: call.idempotencyKey, requestId, replayed };
}

export class Messages {
  private readonly core: ClientCore;
  constructor(core: ClientCore) {
    this.core = core;
  }

  /**
   * Sends any number of independent messages in calls of ≤500 (`POST /messages/batch`). Each element
   * is checked by the service on its own; every input comes back as one result at its own index.
   */
  sendBatch(messages: readonly MessageElement[], options?: RequestOptions): Promise<BulkOutcome> {
    return this.sendInChunks('/messages/batch', messages, MAX_BATCH_MESSAGES, 'messages', (items) => ({ messages: items }), options);
  }

  /**
   * Sends one message to any number of recipients in calls of ≤100 (`POST /messages`). Results are one
   * per recipient, at the recipient's index in `message.to`.
   */
  async send(message: SendMessageInput, options?: RequestOptions): Promise<BulkOutcome> {
    if (!message || typeof message !== 'object') throw inputError('The message must be an object.', 'message');
    if (!Array.isArray(message.to) || message.to.length === 0) throw inputError('The message needs at least one recipient in `to`.', 'to');
    const { to, ...rest } = message;
    return this.sendInChunks('/messages', to, MAX_RECIPIENTS, 'to', (items) => ({ ...rest, to: items }), options);
  }

  /** Both sends: chunked calls whose `{ data: [{ index, id | error }] }` rows map back to the caller's indexes. */
  private async sendInChunks<T>(path: string, items: readonly T[], size: number, what: string, body: (items: T[]) => unknown, options?: RequestOptions): Promise<BulkOutcome> {
    const { results, error } = await runChunkedWrite(
      this.core,
      {
        items,
        maxCount: size,
        what,
        body,
        work: (call) =>
          this.core.sender
            .send<unknown>({ method: 'POST', path, bodyText: call.bodyText, idempotencyKey: call.idempotencyKey, signal: call.signal, budget: call.budget })
            .then((response) => ({ result: mapRows(call, response.data, callInfo(call, response.requestId, response.replayed)), replayed: response.replayed })),
        failed: (call, err) => failedChunk(call, err, callInfo(call, asChunkError(err).requestId)),
        skipped: (call, err) => skippedChunk(call, err, callInfo(call)),
      },
      options,
    );
    // One call (up to 500 inputs) is the common case: its results are the outcome's, not copied.
    return summarize(results.length === 1 ? results[0]! : results.flat(), error);
  }

  /** Reads a delivery row (`msg_…`). Its fields are not shown in the spec: returned as sent. */
  async get(id: string, options?: { signal?: AbortSignal }): Promise<Record<string, unknown>> {
    if (typeof id !== 'string' || !id.trim()) throw inputError('A message id is required.', 'id');
    const response = await this.core.sender.send<{ data?: Record<string, unknown> }>({
      method: 'GET',
      path: `/messages/${encodeURIComponent(id.trim())}`,
      signal: options?.signal,
      budget: budgetFor(this.core),
    });
    return unwrap(response.data);
  }
}
