/**
 * The shared results model (src/) translated into n8n terms: a result that is not `sent` becomes an
 * item for the error output, its `details` telling `outcome: 'failed' | 'unknown' | 'not_attempted'`
 * apart and naming the idempotency key that settles it; chunk progress becomes a log line.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { describeChunkEvent } from '../../../src/index.ts';
import type { ChunkEvent, ItemResult } from '../../../src/index.ts';
import { asApiError, errorItem } from './errors.ts';
import { retrySentence } from './hints.ts';

export type UnsentResult = Exclude<ItemResult, { status: 'sent' }>;

/**
 * The error-output item of one unsent result. Only `error`, `message` and `details` in `json`, so n8n
 * routes it to the error output. An `unknown` result's remedy: send again with `details.idempotencyKey`
 * (it replays or completes, never twice) — in n8n, a Retry of the failed execution does exactly that.
 */
export function unsentResultItem(result: UnsentResult, itemIndex: number, extra?: IDataObject, context?: string): INodeExecutionData {
	const fields: IDataObject = { outcome: result.status, idempotencyKey: result.call.idempotencyKey, chunk: result.call.chunk, ...extra };
	if (result.status === 'failed' && result.wholeCall) fields.wholeCall = true;
	return errorItem(result.error, itemIndex, fields, context);
}

/**
 * The error-output item of an error thrown before or instead of a per-item result: `failed` unless the
 * client says the write may have gone through.
 */
export function thrownErrorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const apiError = asApiError(error);
	return errorItem(apiError, itemIndex, { outcome: apiError.outcomeUnknown ? 'unknown' : 'failed' });
}

/** What n8n adds to a whole-call error when some writes may have gone through. */
export function unknownHint(ctx: IExecuteFunctions, unknown: number): string {
	return unknown > 0 ? `; ${retrySentence(ctx)}` : '';
}

/** Logs each chunk's end through n8n's logger, in the shared wording. */
export function chunkLogger(ctx: IExecuteFunctions, what: string): (event: ChunkEvent) => void {
	return (event) => {
		const line = `Messaging Service: ${describeChunkEvent(event, what)}`;
		if (event.status === 'done') ctx.logger.info(line);
		else ctx.logger.warn(line);
	};
}
