/** Message fields shared by Send and Send Batch; every one accepts an expression (mapped per item). */
import type { INodeProperties } from 'n8n-workflow';
import { splitRecipients } from '../../../../src/index.ts';

export function messageFields(operation: string, toDescription: string): INodeProperties[] {
	const show = { show: { resource: ['message'], operation: [operation] } };
	return [
		{
			displayName: 'Channel',
			name: 'channel',
			type: 'options',
			options: [
				{ name: 'Email', value: 'email' },
				{ name: 'WhatsApp', value: 'whatsapp' },
			],
			default: 'email',
			required: true,
			displayOptions: show,
			description: 'Channel to send on. Use an expression for a channel not listed here.',
		},
		{
			displayName: 'To',
			name: 'to',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'name@email.com',
			displayOptions: show,
			description: toDescription,
		},
		{
			displayName: 'Subject',
			name: 'subject',
			type: 'string',
			default: '',
			displayOptions: show,
			description: 'Subject line, for channels that take one (email). Left out on WhatsApp items (the service has no subject there); a hint on the node says how many.',
		},
		{
			displayName: 'Body',
			name: 'body',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			required: true,
			displayOptions: show,
			description: 'Text of the message (HTML allowed on email)',
		},
	];
}

/** Recipients from a comma-, semicolon- or newline-separated string, or an array from an expression. */
export function recipientList(value: unknown): string[] {
	return splitRecipients(value);
}
