/**
 * Contact → Import: how an input item becomes a contact, per node version. Version 1 has a "Mapping"
 * dropdown and shows the resource mapper (without its own modes) only for "Define Below". Version 2 uses
 * the mapper's own modes, mapping automatically by default as version 1 did. Both read the same way:
 * automatic mapping takes the item's own fields; "Define Below" takes the mapper's typed values.
 */
import type { IDisplayOptions, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { ContactInput } from '../../../../src/index.ts';
import { fromV2, nodeVersion, onlyV1 } from '../../helpers/versions.ts';
import { CONTACT_FIELDS, isMappableKey } from '../../methods/resourceMapping.ts';

type Show = NonNullable<IDisplayOptions['show']>;

const mapperOptions = {
	resourceMapperMethod: 'getContactFields',
	mode: 'add',
	fieldWords: { singular: 'field', plural: 'fields' },
	addAllFields: false,
	multiKeyMatch: false,
} as const;

/** The resource mapper of one version (the same parameter name in both: its value is read the same way). */
function contactMapper(mappingMode: 'defineBelow' | 'autoMapInputData', supportAutoMap: boolean, show: Show, dependsOn: string[]): INodeProperties {
	return {
		displayName: 'Contact Fields',
		name: 'contact',
		type: 'resourceMapper',
		noDataExpression: true,
		required: true,
		default: { mappingMode, value: null },
		typeOptions: { loadOptionsDependsOn: dependsOn, resourceMapper: { ...mapperOptions, supportAutoMap } },
		displayOptions: { show },
		description: 'Each input item becomes one contact: its fields, or the contact fields and the account’s attributes mapped here. To import a CSV file, turn it into items first with "Extract From File".',
	};
}

/** The mapping parameters of both versions, shown where `show` (resource and operation) holds. */
export function mappingParameters(show: Show): INodeProperties[] {
	return [
		{
			displayName: 'Mapping',
			name: 'mapping',
			type: 'options',
			options: [
				{
					name: 'Map Automatically',
					value: 'autoMapInputData',
					description: 'Each item’s fields are the contact (first_name, email, whatsapp and the account’s attribute keys)',
				},
				{
					name: 'Define Below',
					value: 'defineBelow',
					description: 'Map each contact field and attribute of the account, converted to its type',
				},
			],
			default: 'autoMapInputData',
			displayOptions: { show: { ...show, ...onlyV1 } },
			description: 'How input items become contacts. To import a CSV file, turn it into items first with "Extract From File".',
		},
		contactMapper('defineBelow', false, { ...show, mapping: ['defineBelow'], ...onlyV1 }, ['mapping']),
		contactMapper('autoMapInputData', true, { ...show, ...fromV2 }, []),
	];
}

/** 'autoMapInputData' or 'defineBelow': version 1's dropdown, or version 2's mapper mode. */
function mappingMode(ctx: IExecuteFunctions, itemIndex: number): string {
	if (nodeVersion(ctx) >= 2) return ctx.getNodeParameter('contact.mappingMode', itemIndex, 'autoMapInputData') as string;
	return ctx.getNodeParameter('mapping', itemIndex, 'autoMapInputData') as string;
}

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** The mapper's values for this item (n8n has already converted each to its field's type). */
function mappedContact(ctx: IExecuteFunctions, itemIndex: number): ContactInput {
	const values = (ctx.getNodeParameter('contact.value', itemIndex, {}) ?? {}) as Record<string, unknown>;
	const contact: ContactInput = {};
	for (const [key, raw] of Object.entries(values)) {
		if (isEmpty(raw)) continue;
		if (!isMappableKey(key) && !CONTACT_FIELDS.some((field) => field.id === key)) continue;
		const value = typeof raw === 'string' ? raw.trim() : raw && typeof (raw as { toISO?: unknown }).toISO === 'function' ? (raw as { toISO: () => string }).toISO() : raw;
		(contact as Record<string, unknown>)[key] = value;
	}
	return contact;
}

export function contactOf(ctx: IExecuteFunctions, items: INodeExecutionData[], itemIndex: number): ContactInput {
	if (mappingMode(ctx, itemIndex) === 'autoMapInputData') return { ...(items[itemIndex]!.json as ContactInput) };
	return mappedContact(ctx, itemIndex);
}
