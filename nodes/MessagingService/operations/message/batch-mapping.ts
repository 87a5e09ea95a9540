/**
 * Send's Mapping (`sendBatch`): how an input item becomes a message's fields.
 * - "Map Each Field Below" (the default, so saved workflows keep it): Channel, To, Subject and Body are
 *   parameters; an expression such as {{ $json.email }} is evaluated for each item (n8n spends about
 *   0.4 ms per expression per item), a fixed value is read once.
 * - "Map Automatically": each item's own fields are read by name (to, body, subject, channel,
 *   idempotencyKey, or the names under Field Names), with no expression per item. A missing or
 *   mistyped field refuses its item, naming the field.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeSideError } from '../../helpers/errors.ts';
import { textOf } from '../../helpers/items.ts';
import { itemParameter } from '../../helpers/parameters.ts';

export const AUTO_MAP = 'autoMapInputData';
export const DEFINE_BELOW = 'defineBelow';

const show = { resource: ['message'], operation: ['sendBatch'] };

export const fieldMappingProperty: INodeProperties = {
	displayName: 'Mapping',
	name: 'fieldMapping',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Map Automatically',
			value: AUTO_MAP,
			description: 'Each item’s fields to, body, subject, channel and idempotencyKey (or the names under Field Names) are read by name, with no expression per item: the fast way for many items',
		},
		{
			name: 'Map Each Field Below',
			value: DEFINE_BELOW,
			description: 'Set To, Subject and Body below: a fixed value, or an expression that n8n evaluates for each item',
		},
	],
	default: DEFINE_BELOW,
	displayOptions: { show },
	description: 'How each input item becomes a message',
};

/** The fields Map Automatically reads: the Field Names option, the default name, the label in errors. */
const FIELDS = {
	to: { option: 'toField', label: 'To' },
	body: { option: 'bodyField', label: 'Body' },
	subject: { option: 'subjectField', label: 'Subject' },
	channel: { option: 'channelField', label: 'Channel' },
	idempotencyKey: { option: 'idempotencyKeyField', label: 'Idempotency Key' },
} as const;
type Field = keyof typeof FIELDS;

function nameOption(field: Field, description: string): INodeProperties {
	const { option, label } = FIELDS[field];
	return { displayName: `${label} Field`, name: option, type: 'string', default: field, description };
}

export const fieldNamesProperty: INodeProperties = {
	displayName: 'Field Names',
	name: 'fieldNames',
	type: 'collection',
	placeholder: 'Rename a Field',
	default: {},
	displayOptions: { show: { ...show, fieldMapping: [AUTO_MAP] } },
	description: 'The input fields to read when their names differ from to, body, subject, channel and idempotencyKey, e.g. email as To. A top-level field of the item, named exactly.',
	options: [
		nameOption('body', 'Field with the text of the message (HTML allowed on email). Required on every item.'),
		nameOption('channel', 'Field with the item’s channel (email, whatsapp). An item without it is sent on the Channel parameter.'),
		nameOption('idempotencyKey', 'Field with the item’s own key: one message per key, ever, as with an expression giving each item its key. When no item has it, Options → Idempotency Key applies.'),
		nameOption('subject', 'Field with the subject line (email). Optional; left out on WhatsApp items.'),
		nameOption('to', 'Field with the recipient: an e-mail address, or a phone number in international format for WhatsApp, as text. Required on every item.'),
	],
};

/** One item's message fields; `key` is the item's key field (Map Automatically), absent when it has none. */
export interface BatchFields {
	channel: string;
	to: string;
	subject: string;
	body: string;
	key?: string;
}

/** The item's own value of `name` (never one inherited from Object.prototype, e.g. "constructor"). */
function ownField(json: IDataObject, name: string): unknown {
	const descriptor = Object.getOwnPropertyDescriptor(json, name);
	return descriptor && 'value' in descriptor ? descriptor.value : undefined;
}

function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'boolean') return 'true/false';
	return `a ${typeof value}`;
}

function missingField(field: Field, name: string, itemIndex: number): NodeSideError {
	const { label } = FIELDS[field];
	return new NodeSideError('invalid_input', `Item ${itemIndex} has no field "${name}" (${label}).`, `Give every item a "${name}" field, or under Field Names name the field that holds the ${label}.`, field);
}

function wrongType(field: Field, name: string, value: unknown, itemIndex: number, wanted = 'text'): NodeSideError {
	const { label } = FIELDS[field];
	return new NodeSideError('invalid_input', `Field "${name}" (${label}) of item ${itemIndex} is ${kindOf(value)}, not ${wanted}.`, `Make "${name}" ${wanted} before this node (e.g. with Edit Fields), or name another field under Field Names.`, field);
}

/** The Field Names option, each name trimmed; an empty name is the field's own name. */
function fieldNamesOf(value: unknown): Record<Field, string> {
	const given = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
	const names = {} as Record<Field, string>;
	for (const field of Object.keys(FIELDS) as Field[]) names[field] = textOf(Object.hasOwn(given, FIELDS[field].option) ? given[FIELDS[field].option] : undefined) || field;
	return names;
}

/** Map Automatically: the item's fields by name; the Channel parameter for an item without a channel field. */
function autoMapped(ctx: IExecuteFunctions, items: INodeExecutionData[]): (itemIndex: number) => BatchFields {
	const namesParameter = itemParameter<unknown>(ctx, 'fieldNames', {});
	const channelParameter = itemParameter<unknown>(ctx, 'channel', '');
	let read: { given: unknown; names: Record<Field, string> } | undefined; // the same option value is read once
	return (itemIndex) => {
		const json = items[itemIndex]!.json;
		const given = namesParameter(itemIndex);
		if (!read || read.given !== given) read = { given, names: fieldNamesOf(given) };
		const names = read.names;
		const text = (field: Field, required: boolean): string | undefined => {
			const value = ownField(json, names[field]);
			if (value === undefined || value === null) {
				if (required) throw missingField(field, names[field], itemIndex);
				return undefined;
			}
			if (typeof value !== 'string') throw wrongType(field, names[field], value, itemIndex);
			return value;
		};
		const to = text('to', true)!.trim();
		const body = text('body', true)!;
		const subject = text('subject', false)?.trim() ?? '';
		const channel = text('channel', false)?.trim() || textOf(channelParameter(itemIndex));
		const fields: BatchFields = { channel, to, subject, body };
		const key = ownField(json, names.idempotencyKey);
		if (typeof key === 'string' || (typeof key === 'number' && Number.isFinite(key))) fields.key = String(key);
		else if (key !== undefined && key !== null) throw wrongType('idempotencyKey', names.idempotencyKey, key, itemIndex, 'text or a number');
		return fields;
	};
}

/** Map Each Field Below: the parameters, each evaluated per item only when it is an expression. */
function definedBelow(ctx: IExecuteFunctions): (itemIndex: number) => BatchFields {
	const channel = itemParameter<unknown>(ctx, 'channel', '');
	const to = itemParameter<unknown>(ctx, 'to', '');
	const subject = itemParameter<unknown>(ctx, 'subject', '');
	const body = itemParameter<string>(ctx, 'body', '');
	return (itemIndex) => ({ channel: textOf(channel(itemIndex)), to: textOf(to(itemIndex)), subject: textOf(subject(itemIndex)), body: body(itemIndex) });
}

/** Whether the node maps automatically (a workflow saved before Mapping existed maps each field below). */
export function mapsAutomatically(ctx: IExecuteFunctions): boolean {
	return ctx.getNodeParameter('fieldMapping', 0, DEFINE_BELOW) === AUTO_MAP;
}

/** The reader of each item's fields in the node's Mapping. */
export function batchFieldsReader(ctx: IExecuteFunctions, items: INodeExecutionData[], auto: boolean): (itemIndex: number) => BatchFields {
	return auto ? autoMapped(ctx, items) : definedBelow(ctx);
}
