/**
 * The fields of Contact → Import's resource mapper ("Define Below"): the contact's own fields, then every
 * attribute of the account (`GET /contact-attributes`) with its type, so n8n shows the right input and
 * converts the mapped value (a "true" from a sheet becomes true for a boolean attribute).
 */
import type { FieldType, ILoadOptionsFunctions, ResourceMapperField, ResourceMapperFields } from 'n8n-workflow';
import { nodeError } from '../helpers/errors.ts';
import { maxWaitMs } from '../helpers/options.ts';
import { createClient } from '../transport/index.ts';
import { isPrototypeName } from '../../../src/index.ts';

export const CONTACT_FIELDS: readonly ResourceMapperField[] = [
	{ id: 'first_name', displayName: 'First Name', type: 'string', required: false, defaultMatch: false, canBeUsedToMatch: false, display: true },
	{ id: 'whatsapp', displayName: 'WhatsApp Number', type: 'string', required: false, defaultMatch: false, canBeUsedToMatch: true, display: true },
	{ id: 'email', displayName: 'Email', type: 'string', required: false, defaultMatch: false, canBeUsedToMatch: true, display: true },
];

/** Attribute types (as the service names them) → n8n field types; an unknown type is taken as text. */
const FIELD_TYPE: Record<string, FieldType> = { text: 'string', string: 'string', number: 'number', boolean: 'boolean', date: 'dateTime' };

/** An attribute key the node will map: plain characters, no prototype names, no clash with a contact field. */
export function isMappableKey(key: unknown): key is string {
	return (
		typeof key === 'string' &&
		/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/.test(key) &&
		!isPrototypeName(key) &&
		!CONTACT_FIELDS.some((field) => field.id === key)
	);
}

export function attributeFields(attributes: Record<string, unknown>[]): ResourceMapperField[] {
	const seen = new Set<string>();
	const fields: ResourceMapperField[] = [];
	for (const attribute of attributes) {
		const key = attribute?.key;
		if (!isMappableKey(key) || seen.has(key)) continue;
		seen.add(key);
		const label = typeof attribute.label === 'string' && attribute.label.trim() ? attribute.label.trim().slice(0, 100) : key;
		fields.push({
			id: key,
			displayName: label === key ? key : `${label} (${key})`,
			type: FIELD_TYPE[String(attribute.type)] ?? 'string',
			required: false,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
		});
	}
	return fields;
}

export async function getContactFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const client = await createClient(this, { maxWaitMs: maxWaitMs(this) });
	try {
		const attributes = await client.contactAttributes.list();
		return { fields: [...CONTACT_FIELDS, ...attributeFields(attributes)] };
	} catch (error) {
		throw nodeError(this.getNode(), error, 0, 'loading the contact attributes');
	}
}
