/** Message → Get: a delivery row (`msg_…`) by id, with its state. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { MessagingClient } from '../../../../src/index.ts';
import { cancelSignal, forEachItem, requiredString } from '../../helpers/items.ts';
import { optionsCollection } from '../../helpers/options.ts';

export const description: INodeProperties[] = [
	{
		displayName: 'Message ID',
		name: 'messageId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'msg_…',
		displayOptions: { show: { resource: ['message'], operation: ['get'] } },
		description: 'ID of the sent message (starts with msg_)',
	},
	optionsCollection('message', 'get'),
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient): Promise<INodeExecutionData[]> {
	const signal = cancelSignal(this);
	return await forEachItem(this, items, async (itemIndex) => await client.messages.get(requiredString(this, 'messageId', itemIndex), { signal }) as IDataObject);
}
