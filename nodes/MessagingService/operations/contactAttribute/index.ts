import type { INodeProperties } from 'n8n-workflow';
import * as getAll from './getAll.operation.ts';

export { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contactAttribute'] } },
		options: [{ name: 'Get Many', value: 'getAll', description: 'List the contact attributes of the account', action: 'Get many contact attributes' }],
		default: 'getAll',
	},
	...getAll.description,
];
