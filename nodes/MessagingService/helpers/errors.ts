/**
 * Errors of the node, built from the shared layer's ApiError (never by re-wrapping n8n's own helper
 * errors): the message names the code and the remedy and ends with the item index; the structured
 * fields go under `details` so "Continue (using error output)" routes the item.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { ApiError, describeError } from '../../../src/index.ts';

/** `type, code, param, doc_url, status, requestId` (+ the remedy), without empty fields. */
export function errorDetails(error: ApiError, extra?: IDataObject): IDataObject {
	const details: IDataObject = {
		type: error.type,
		code: error.code,
		param: error.param,
		doc_url: error.docUrl,
		status: error.status,
		requestId: error.requestId,
		remedy: error.remedy,
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
			error: describeError(error, where(itemIndex, context)),
			message: error.message,
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

	override get remedy(): string {
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
 * The error to throw when the node stops: NodeApiError when the service answered, NodeOperationError
 * when nothing came back or the input was wrong. The message is set last so n8n's "common error"
 * rewording cannot replace it.
 */
export function nodeError(node: INode, error: unknown, itemIndex: number, context?: string): NodeApiError | NodeOperationError {
	if ((error instanceof NodeApiError || error instanceof NodeOperationError) && !(error instanceof ApiError)) return error;
	const apiError = asApiError(error);
	const message = describeError(apiError, where(itemIndex, context));
	const description = apiError.docUrl ? `${apiError.remedy} See ${apiError.docUrl}` : apiError.remedy;
	const built =
		apiError.status > 0
			? new NodeApiError(node, { ...errorDetails(apiError), message: apiError.message }, {
					message,
					description,
					httpCode: String(apiError.status),
					itemIndex,
				})
			: new NodeOperationError(node, message, { description, itemIndex });
	built.message = message;
	return built;
}
