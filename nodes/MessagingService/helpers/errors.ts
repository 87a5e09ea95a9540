/**
 * Errors of the node, built from the shared layer's ApiError (never by re-wrapping n8n's own helper
 * errors). The title is the code and the service's words, at most 80 characters; the description says
 * what to do, then the field, the request id and the item. Nothing appears in both. The structured
 * fields go under `details` so "Continue (using error output)" routes the item.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { ApiError } from '../../../src/index.ts';

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

export const TITLE_MAX_LENGTH = 80;

function serviceWords(error: ApiError): string {
	return error.message.replace(/[.\s]+$/, '');
}

/**
 * `code: the service's words`, cut at a word boundary to at most 80 characters. A write whose outcome is
 * unknown says so first: it is not a failure, and sending it again with its key settles it.
 */
export function errorTitle(error: ApiError): string {
	const full = `${error.outcomeUnknown ? 'Outcome unknown: ' : ''}${error.code}: ${serviceWords(error)}`;
	if (full.length <= TITLE_MAX_LENGTH) return full;
	const cut = full.slice(0, TITLE_MAX_LENGTH - 1);
	const space = cut.lastIndexOf(' ');
	return `${(space > TITLE_MAX_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.(-]+$/, '')}…`;
}

/**
 * What to do, then what the title had no room for: the rest of the message, the idempotency key that
 * settles an unknown outcome, field, request, doc, item.
 */
export function errorDescription(error: ApiError, whereText?: string, idempotencyKey?: unknown): string {
	const remedy = error.remedy;
	const parts: string[] = [];
	if (errorTitle(error).endsWith('…')) parts.push(`${serviceWords(error)}.`);
	parts.push(remedy);
	if (error.outcomeUnknown && typeof idempotencyKey === 'string') parts.push(`Idempotency key: ${idempotencyKey}.`);
	if (error.param && !remedy.includes(error.param) && !error.message.includes(error.param)) parts.push(`(field: ${error.param})`);
	if (error.requestId) parts.push(`[request ${error.requestId}]`);
	if (error.docUrl) parts.push(`See ${error.docUrl}`);
	if (whereText) parts.push(`— ${whereText}`);
	return parts.join(' ');
}

/**
 * The item for the error output: only `error`, `message` and `details` in `json` (n8n moves an item to
 * the error output only when its json has no other keys).
 */
export function errorItem(error: ApiError, itemIndex: number, extra?: IDataObject, context?: string): INodeExecutionData {
	return {
		json: {
			error: errorTitle(error),
			message: errorDescription(error, where(itemIndex, context), extra?.idempotencyKey),
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
export function nodeError(node: INode, error: unknown, itemIndex: number, context?: string, idempotencyKey?: string): NodeApiError | NodeOperationError {
	if ((error instanceof NodeApiError || error instanceof NodeOperationError) && !(error instanceof ApiError)) return error;
	const apiError = asApiError(error);
	const message = errorTitle(apiError);
	const description = errorDescription(apiError, where(itemIndex, context), idempotencyKey);
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
