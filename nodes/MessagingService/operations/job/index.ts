import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation.ts';
import * as wait from './wait.operation.ts';

export { get, wait };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['job'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get a background job with its counters', action: 'Get a job' },
			{ name: 'Wait', value: 'wait', description: 'Wait until a background job has finished', action: 'Wait for a job' },
		],
		default: 'get',
	},
	...get.description,
	...wait.description,
];
