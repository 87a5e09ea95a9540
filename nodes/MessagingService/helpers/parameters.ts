/**
 * Node parameters read per item only when they are expressions. `getNodeParameter` runs n8n's whole
 * resolution on every call, even for a fixed value (n8n-core 2.41: the expression check, then a search of
 * the node's properties for the one displayed, 5–9 µs); a value that is not an expression is the same for every item, so it is read once, at
 * item 0, and reused. An expression (a string starting with "=" anywhere in the raw parameter, as n8n
 * stores one) is still evaluated for each item.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/** The parameter's value for an item. */
export type ItemParameter<T> = (itemIndex: number) => T;

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

/** Whether the raw parameter at `path` (dot-separated, e.g. "options.idempotencyKey") is or holds an expression. */
export function isExpressionParameter(ctx: IExecuteFunctions, path: string): boolean {
	let value: unknown = ctx.getNode().parameters;
	for (const part of path.split('.')) {
		if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return false;
		value = (value as Record<string, unknown>)[part];
	}
	return holdsExpression(value);
}

/** The parameter for every item: evaluated per item when it is an expression, otherwise read once now. */
export function itemParameter<T>(ctx: IExecuteFunctions, path: string, fallback: T): ItemParameter<T> {
	if (isExpressionParameter(ctx, path)) return (itemIndex) => ctx.getNodeParameter(path, itemIndex, fallback) as T;
	const value = ctx.getNodeParameter(path, 0, fallback) as T;
	return () => value;
}
