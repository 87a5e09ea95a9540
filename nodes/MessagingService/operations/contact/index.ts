import type { INodeProperties } from 'n8n-workflow';
import { fromV2, onlyV1 } from '../../helpers/versions.ts';
import * as getAll from './getAll.operation.ts';
import * as importContacts from './import.operation.ts';

export { getAll, importContacts as import };

function operation(versions: typeof onlyV1 | typeof fromV2, defaultOperation: 'getAll' | 'import'): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'], ...versions } },
		options: [
			{ name: 'Get Many', value: 'getAll', description: 'List contacts', action: 'Get many contacts' },
			{ name: 'Import', value: 'import', description: 'Import input items as contacts, in jobs of up to 1000', action: 'Import contacts' },
		],
		default: defaultOperation,
	};
}

export const description: INodeProperties[] = [
	// Version 1 defaulted to the bulk write; its saved workflows omit the operation when it is Import.
	operation(onlyV1, 'import'),
	// From version 2 a new Contact node reads: nothing is written until Import is chosen.
	operation(fromV2, 'getAll'),
	...importContacts.description,
	...getAll.description,
];
