import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as account from './operations/account/index.ts';
import * as contact from './operations/contact/index.ts';
import * as contactAttribute from './operations/contactAttribute/index.ts';
import * as job from './operations/job/index.ts';
import * as message from './operations/message/index.ts';
import { getContactFields } from './methods/resourceMapping.ts';
import { router } from './operations/router.ts';
import { DEFAULT_NODE_VERSION, NODE_VERSIONS } from './helpers/versions.ts';

/**
 * Programmatic style on purpose: Message → Send and Contact → Import merge all input items into calls of
 * ≤500 / ≤1000, imports are polled to completion, and rate-limit pacing and Retry-After are honoured
 * between calls. Declarative routing sends one request per item and can do none of that.
 *
 * Version 2 (CHANGELOG.md): operations named as n8n's messaging nodes name them, Contact defaults to
 * Get Many, and Contact → Import maps with the resource mapper's own modes. The operation values are
 * version 1's, and every default that changed is gated by `@version` (helpers/versions.ts).
 */
export class MessagingService implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Service',
		name: 'messagingService',
		icon: { light: 'file:messagingService.svg', dark: 'file:messagingService.dark.svg' },
		group: ['output'],
		version: NODE_VERSIONS,
		defaultVersion: DEFAULT_NODE_VERSION,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Send messages, import contacts and follow jobs on Messaging Service',
		defaults: { name: 'Messaging Service' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'messagingServiceApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Account', value: 'account' },
					{ name: 'Contact', value: 'contact' },
					{ name: 'Contact Attribute', value: 'contactAttribute' },
					{ name: 'Job', value: 'job' },
					{ name: 'Message', value: 'message' },
				],
				default: 'message',
			},
			...message.description,
			...contact.description,
			...contactAttribute.description,
			...job.description,
			...account.description,
		],
	};

	methods = {
		resourceMapping: { getContactFields },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
