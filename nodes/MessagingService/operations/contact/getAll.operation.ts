/** Contact → Get Many: `GET /contacts`, cursor pagination (pages of 100 when returning all). */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { MessagingClient } from '../../../../src/index.ts';
import { cancelSignal, forEachItem } from '../../helpers/items.ts';
import { optionsCollection } from '../../helpers/options.ts';

const show = { show: { resource: ['contact'], operation: ['getAll'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions: show,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		displayOptions: { show: { resource: ['contact'], operation: ['getAll'], returnAll: [false] } },
		description: 'Max number of results to return',
	},
	optionsCollection('contact', 'getAll'),
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient): Promise<INodeExecutionData[]> {
	const signal = cancelSignal(this);
	return await forEachItem(this, items, async (itemIndex) => {
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = returnAll ? Number.MAX_SAFE_INTEGER : Math.max(1, Math.floor(this.getNodeParameter('limit', itemIndex, 50) as number));
		const contacts = await client.contacts.list({ limit: returnAll ? undefined : Math.min(limit, 100), signal }).toArray({ max: limit });
		return contacts as IDataObject[];
	});
}
