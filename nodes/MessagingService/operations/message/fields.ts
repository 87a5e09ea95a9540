/** Message fields shared by Send and Send Batch; every one accepts an expression (mapped per item). */
import type { INodeProperties } from 'n8n-workflow';
import { splitRecipients } from '../../../../src/index.ts';

/** How Send Batch shows the fields: To, Subject and Body only under `contentShow`; Channel's own words. */
export interface MappedFields {
	contentShow: Record<string, string[]>;
	channelDescription: string;
}

export function messageFields(operation: string, toDescription: string, mapped?: MappedFields): INodeProperties[] {
	const show = { show: { resource: ['message'], operation: [operation] } };
	const contentShow = mapped ? { show: { ...show.show, ...mapped.contentShow } } : show;
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
			description: mapped?.channelDescription ?? 'Channel to send on. Use an expression for a channel not listed here.',
		},
		{
			displayName: 'To',
			name: 'to',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'name@email.com',
			displayOptions: contentShow,
			description: toDescription,
		},
		{
			displayName: 'Subject',
			name: 'subject',
			type: 'string',
			default: '',
			displayOptions: contentShow,
			description: 'Subject line, for channels that take one (email). Left out on WhatsApp items (the service has no subject there); a hint on the node says how many.',
		},
		{
			displayName: 'Body',
			name: 'body',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			required: true,
			displayOptions: contentShow,
			description: 'Text of the message (HTML allowed on email)',
		},
	];
}

/** Recipients from a comma-, semicolon- or newline-separated string, or an array from an expression. */
export function recipientList(value: unknown): string[] {
	return splitRecipients(value);
}
