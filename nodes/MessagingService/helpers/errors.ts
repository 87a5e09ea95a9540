/**
 * Errors of the node, built from the shared layer's ApiError (never by re-wrapping n8n's own helper
 * errors) and worded by src/error-wording.ts in the node's own setting names (NODE_WORDS): the title is
 * the code and the service's words, at most 80 characters; the description says what to do, then the
 * field, the request id and the item. Nothing appears in both. The structured fields go under `details`
 * so "Continue (using error output)" routes the item.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { ApiError, errorDescription, errorTitle, httpStatusOf } from '../../../src/index.ts';
import { NODE_WORDS } from './surface-words.ts';

/**
 * `type, code, param, doc_url, status, requestId` (+ the remedy), without empty fields. `status` is the
 * HTTP status the error came with, or null: a row refused inside a 200 answer, or the client's own limit.
 */
export function errorDetails(error: ApiError, extra?: IDataObject): IDataObject {
	const details: IDataObject = {
		type: error.type,
		code: error.code,
		param: error.param,
		doc_url: error.docUrl,
		status: httpStatusOf(error),
		requestId: error.requestId,
		remedy: error.remedyIn(NODE_WORDS),
		...extra,
	};
	for (const key of Object.keys(details)) if (details[key] === undefined) delete details[key];
	return details;
}

export function where(itemIndex: number, context?: string): string {
	return context ? `${context}; item ${itemIndex}` : `item ${itemIndex}`;
}

/**
 * The item for the error output: only `error`, `message` and `details` in `json` (n8n moves an item to
 * the error output only when its json has no other keys).
 */
export function errorItem(error: ApiError, itemIndex: number, extra?: IDataObject, context?: string): INodeExecutionData {
	return {
		json: {
			error: errorTitle(error),
			message: errorDescription(error, { where: where(itemIndex, context), idempotencyKey: extra?.idempotencyKey, words: NODE_WORDS }),
			details: errorDetails(error, extra),
		},
		pairedItem: { item: itemIndex },
	};
}

/** A failure the node itself reports (no service code applies), with its own remedy. */
export class NodeSideError extends ApiError {
	private readonly remedyText: string;

	constructor(code: string, message: string, remedy: string, param?: string) {
		super({ status: 0, type: 'node_error', code, message, param });
		this.remedyText = remedy;
	}

	override remedyIn(): string {
		return this.remedyText;
	}
}

/** Any failure as an ApiError (errors the layer did not make keep their message, code `node_error`). */
export function asApiError(error: unknown): ApiError {
	if (error instanceof ApiError) return error;
	const message = error instanceof Error ? error.message : String(error);
	return new NodeSideError('node_error', message, 'Check the node’s parameters and the input item.');
}

/**
 * The error to throw when the node stops: NodeApiError when the service refused the call with an HTTP
 * status (its httpCode); NodeOperationError otherwise — a row refused inside a 200 answer, the client's
 * own limit, no answer, or wrong input — so no httpCode is shown that did not come. The message is set
 * last so n8n's "common error" rewording cannot replace it.
 */
export function nodeError(node: INode, error: unknown, itemIndex: number, context?: string, idempotencyKey?: string): NodeApiError | NodeOperationError {
	if ((error instanceof NodeApiError || error instanceof NodeOperationError) && !(error instanceof ApiError)) return error;
	const apiError = asApiError(error);
	const message = errorTitle(apiError);
	const description = errorDescription(apiError, { where: where(itemIndex, context), idempotencyKey, words: NODE_WORDS });
	const status = httpStatusOf(apiError);
	const built =
		status !== null
			? new NodeApiError(node, { ...errorDetails(apiError), message: apiError.message }, {
					message,
					description,
					httpCode: String(status),
					itemIndex,
				})
			: new NodeOperationError(node, message, { description, itemIndex });
	built.message = message;
	return built;
}
