/** Options shared by the operations' "Options" collections. */
import type { IExecuteFunctions, ILoadOptionsFunctions, INodeProperties } from 'n8n-workflow';

export const DEFAULT_MAX_WAIT_SECONDS = 300;

export const maxWaitOption: INodeProperties = {
	displayName: 'Max Rate-Limit Wait (Seconds)',
	name: 'maxWaitSeconds',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_MAX_WAIT_SECONDS,
	description:
		'Longest time the node may wait in all for rate-limit windows and Retry-After answers before it gives up. The node paces itself by the rate-limit headers and retries after a 429 within this bound.',
};

export const idempotencyKeyField: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	hint: 'Empty: a run with the same trigger data and items sends nothing twice (such rows come out "sentEarlier"); a new schedule tick or other webhook data sends again. One key per item: one message per key, ever.',
	description:
		'Leave empty: keys derive from the trigger data the run started from, the node, the run and the content, and the node remembers the rows it sent in n8n\'s deduplication store. Retry On Fail, a Retry, a crashed execution\'s Retry, Debug in editor, a sub-workflow run again, and any run with the SAME trigger data and items (a webhook delivered twice, a second manual run) never send a row twice: such rows come out with "sentEarlier": true. A new schedule tick or a webhook with other data sends again. An expression giving each item its own key (e.g. the item’s order ID) means one message per key: an item whose key this node sent before is not sent again. A fixed text is the key of the whole call (each chunk adds ":chunk-N"; at most 255 visible ASCII characters).',
};

/** The operation's "Options" collection with the given extra options, sorted by display name. */
export function optionsCollection(resource: string, operation: string, extra: INodeProperties[] = []): INodeProperties {
	const options = [...extra, maxWaitOption].sort((a, b) => a.displayName.localeCompare(b.displayName));
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { resource: [resource], operation: [operation] } },
		options,
	};
}

export function maxWaitMs(ctx: IExecuteFunctions | ILoadOptionsFunctions): number {
	const seconds = ('getInputData' in ctx ? ctx.getNodeParameter('options.maxWaitSeconds', 0, DEFAULT_MAX_WAIT_SECONDS) : ctx.getNodeParameter('options.maxWaitSeconds', DEFAULT_MAX_WAIT_SECONDS)) as number;
	return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_MAX_WAIT_SECONDS * 1000;
}

export function userIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number): string {
	const value = ctx.getNodeParameter('options.idempotencyKey', itemIndex, '') as unknown;
	return typeof value === 'string' ? value : String(value ?? '');
}
