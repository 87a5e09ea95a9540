/** The per-item frame of the read operations: one call per input item, errors routed or thrown. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { asApiError, errorItem, nodeError } from './errors.ts';

export async function forEachItem(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	work: (itemIndex: number) => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const data = await work(itemIndex);
			output.push(...ctx.helpers.constructExecutionMetaData(ctx.helpers.returnJsonArray(data), { itemData: { item: itemIndex } }));
		} catch (error) {
			if (!ctx.continueOnFail()) throw nodeError(ctx.getNode(), error, itemIndex);
			output.push(errorItem(asApiError(error), itemIndex));
		}
	}
	return output;
}

/** The execution's cancel signal, handed to the client so waits and polls stop with the execution. */
export function cancelSignal(ctx: IExecuteFunctions): AbortSignal | undefined {
	return ctx.getExecutionCancelSignal?.() ?? undefined;
}

/** A parameter's value as trimmed text ('' when empty). */
export function textOf(value: unknown): string {
	return typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value).trim();
}

export function requiredString(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	return textOf(ctx.getNodeParameter(name, itemIndex, '') as unknown);
}
