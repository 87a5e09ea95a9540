import type { INodeProperties } from 'n8n-workflow';
import * as getAll from './getAll.operation.ts';
import * as importContacts from './import.operation.ts';

export { getAll, importContacts as import };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{ name: 'Get Many', value: 'getAll', description: 'List contacts', action: 'Get many contacts' },
			{ name: 'Import', value: 'import', description: 'Import input items as contacts, in jobs of up to 1000', action: 'Import contacts' },
		],
		default: 'import',
	},
	...importContacts.description,
	...getAll.description,
];
