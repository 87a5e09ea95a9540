import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation.ts';
import * as send from './send.operation.ts';
import * as sendBatch from './sendBatch.operation.ts';

export { get, send, sendBatch };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['message'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get a sent message by ID', action: 'Get a message' },
			{ name: 'Send', value: 'send', description: 'Send one message to one or more recipients (per item)', action: 'Send a message' },
			{
				name: 'Send Batch',
				value: 'sendBatch',
				description: 'Send one message per input item, up to 500 per call',
				action: 'Send a batch of messages',
			},
		],
		default: 'sendBatch',
	},
	...send.description,
	...sendBatch.description,
	...get.description,
];
