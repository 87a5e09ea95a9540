import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation.ts';
import * as send from './send.operation.ts';
import * as sendBatch from './sendBatch.operation.ts';

export { get, send, sendBatch };

/**
 * The values are version 1's (saved workflows name them); the names are n8n's messaging nodes' (Twilio,
 * SendGrid, Brevo): "Send" is one message per item. Names are not saved, so both versions show them.
 * Send stays the default in every version: the node is added to send, as n8n's messaging nodes are.
 */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['message'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get a sent message by ID', action: 'Get a message' },
			{
				name: 'Send',
				value: 'sendBatch',
				description: 'Send one message per input item (all items go out together, up to 500 per call)',
				action: 'Send a message',
			},
			{
				name: 'Send to Many',
				value: 'send',
				description: 'Per input item, send one message to a list of recipients',
				action: 'Send a message to many recipients',
			},
		],
		default: 'sendBatch',
	},
	...send.description,
	...sendBatch.description,
	...get.description,
];
